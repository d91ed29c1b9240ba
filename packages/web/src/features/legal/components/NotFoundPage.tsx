import { useTranslation } from 'react-i18next';
import { ButtonLink } from '../../../components/Button.tsx';
import { AuthCard } from '../../../components/layout/PublicLayout.tsx';
import { useDocumentTitle } from '../../../components/PageHeader.tsx';
import { paths } from '../../../paths.ts';

export function NotFoundPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('not_found.title'));
  return (
    <AuthCard>
      <p className="text-sm font-semibold text-sky-700 dark:text-sky-400">404</p>
      <h1 className="mt-1 text-2xl font-bold tracking-tight">{t('not_found.title')}</h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{t('not_found.text')}</p>
      <ButtonLink to={paths.home.getHref()} className="mt-6">
        {t('common.back_home')}
      </ButtonLink>
    </AuthCard>
  );
}
