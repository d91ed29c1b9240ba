import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ButtonLink } from '../components/Button.tsx';
import { useDocumentTitle } from '../components/PageHeader.tsx';
import { PageRefused } from '../components/QueryBoundary.tsx';
import { LoadingState } from '../components/Spinner.tsx';
import { paths } from '../paths.ts';
import { isMissingChunk, mayReload, RELOADED_AT_KEY } from './stale-chunk.ts';

/**
 * A signed-in page that could not be shown, inside the shell: refused ("Access denied"), not there
 * ("Not found"), or broken ("Error!"); each with its title, the reason, and the way back. A page
 * whose code cannot be fetched after a deploy reloads the tab once, onto the new build.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  const reloading = isMissingChunk(error) && mayReload();
  useEffect(() => {
    if (!reloading) return;
    window.sessionStorage.setItem(RELOADED_AT_KEY, String(Date.now()));
    window.location.reload();
  }, [reloading]);
  if (reloading) return <LoadingState />;
  return <RouteError error={error} />;
}

function RouteError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const kind = error instanceof PageRefused ? error.kind : 'broken';
  const title =
    kind === 'forbidden' ? t('forbidden.title') : kind === 'missing' ? t('missing.title') : t('dialog.error');
  const reason = error instanceof Error ? error.message : t('errors.api_error');
  useDocumentTitle(title);
  return (
    <div className="max-w-2xl">
      {kind !== 'broken' && (
        <p className="text-sm font-semibold text-sky-700 dark:text-sky-400">
          {kind === 'forbidden' ? 403 : 404}
        </p>
      )}
      <h1 className="mt-1 text-2xl font-bold tracking-tight">{title}</h1>
      <p className="mt-3 text-sm font-medium text-slate-800 dark:text-slate-200">{reason}</p>
      {kind !== 'broken' && (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          {kind === 'forbidden' ? t('forbidden.text') : t('missing.text')}
        </p>
      )}
      <ButtonLink to={paths.home.getHref()} className="mt-6">
        {t('common.back_dashboard')}
      </ButtonLink>
    </div>
  );
}
