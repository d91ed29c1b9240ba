import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/Alert.tsx';
import { useDocumentTitle } from '../../../components/PageHeader.tsx';
import { LoadingState } from '../../../components/Spinner.tsx';
import { SUPPORT_EMAIL } from '../../../components/layout/Footer.tsx';
import { PageFrame } from './PageFrame.tsx';

/** The service is up when the API answers its health check, which also reaches the database. */
async function apiAnswers(): Promise<boolean> {
  try {
    const response = await fetch('/v1/health', { headers: { Accept: 'application/json' } });
    return response.ok;
  } catch {
    return false;
  }
}

export function StatusPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('status.title'));
  const probe = useQuery({ queryKey: ['health'], queryFn: apiAnswers, staleTime: 0 });
  return (
    <PageFrame>
      <h1 className="text-2xl font-bold tracking-tight">{t('status.title')}</h1>
      <div className="mt-4">
        {probe.isPending ? (
          <LoadingState />
        ) : probe.data ? (
          <Alert tone="success">{t('status.up')}</Alert>
        ) : (
          <Alert title={t('dialog.error')}>{t('status.down')}</Alert>
        )}
      </div>
      <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">
        {t('status.contact')}{' '}
        <a href={`mailto:${SUPPORT_EMAIL}`} className="text-sky-700 underline dark:text-sky-400">
          {SUPPORT_EMAIL}
        </a>
      </p>
    </PageFrame>
  );
}
