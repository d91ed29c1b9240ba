import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '../../../components/Alert.tsx';
import { AuthCard } from '../../../components/layout/PublicLayout.tsx';
import { useDocumentTitle } from '../../../components/PageHeader.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { confirmRegistration } from '../api/register.ts';

const LINK = 'inline-block font-medium text-sky-700 hover:underline dark:text-sky-400';

/** The registration's emailed link (?token=): confirms the address once, then says what comes next. */
export function ConfirmRegistrationPage() {
  const { t } = useLanguage();
  useDocumentTitle(t('register_confirm.title'));
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [answer, setAnswer] = useState<{
    tone: 'success' | 'error';
    message: string;
    expired?: boolean;
  } | null>(null);
  const sent = useRef(false);

  useEffect(() => {
    // The link works once: React's double effects in development must not spend it twice.
    if (sent.current) return;
    sent.current = true;
    confirmRegistration(token)
      .then((res) => setAnswer({ tone: 'success', message: res.message }))
      .catch((error: unknown) =>
        setAnswer(
          // The server's "invalid token" says nothing a resident can act on: what happened and what to do.
          error instanceof ApiRequestError && error.code === 'errors.invalid_token'
            ? { tone: 'error', message: t('register_confirm.invalid_link'), expired: true }
            : {
                tone: 'error',
                message: error instanceof ApiRequestError ? error.message : t('errors.api_error'),
              },
        ),
      );
  }, [token, t]);

  return (
    <AuthCard>
      <h1 className="text-2xl font-bold tracking-tight">{t('register_confirm.title')}</h1>
      <div className="mt-4">
        {answer ? (
          <Alert tone={answer.tone} title={answer.tone === 'error' ? t('dialog.error') : undefined}>
            {answer.message}
          </Alert>
        ) : (
          <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
            {t('register_confirm.working')}
          </p>
        )}
      </div>
      <p className="mt-6 flex flex-wrap gap-x-6 gap-y-2">
        {answer?.expired && (
          <Link to={paths.register.getHref()} className={LINK}>
            {t('register_confirm.register_again')}
          </Link>
        )}
        <Link to={paths.login.getHref()} className={LINK}>
          {t('common.back_to_login')}
        </Link>
      </p>
    </AuthCard>
  );
}
