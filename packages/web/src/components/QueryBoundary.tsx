import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../lib/api-client.ts';
import { Alert } from './Alert.tsx';
import { LoadingState } from './Spinner.tsx';

/**
 * What the user may not see (403 "Unauthorized resource recovery") or what is not there (404): the
 * whole page is refused, so it is thrown to the route, whose error page has a title and a way back,
 * once, however many of the page's queries were refused.
 */
export class PageRefused extends Error {
  constructor(
    readonly kind: 'forbidden' | 'missing',
    message: string,
  ) {
    super(message);
    this.name = 'PageRefused';
  }
}

function refusalOf(error: Error): PageRefused | null {
  if (!(error instanceof ApiRequestError)) return null;
  if (error.code === 'errors.forbidden') return new PageRefused('forbidden', error.message);
  if (error.code === 'errors.not_found') return new PageRefused('missing', error.message);
  return null;
}

/** Loading, then the API's error message ("Error!"), or the data; a refused page goes to the route's error page. */
export function QueryBoundary<T>({
  query,
  children,
}: {
  query: UseQueryResult<T>;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  if (query.isPending) return <LoadingState />;
  if (query.isError) {
    const refusal = refusalOf(query.error);
    if (refusal) throw refusal;
    return <Alert title={t('dialog.error')}>{query.error.message}</Alert>;
  }
  return <>{children(query.data)}</>;
}
