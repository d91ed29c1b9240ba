import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from './Alert.tsx';
import { LoadingState } from './Spinner.tsx';

/** Loading, then the API's error message ("Error!"), or the data. */
export function QueryBoundary<T>({
  query,
  children,
}: {
  query: UseQueryResult<T>;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  if (query.isPending) return <LoadingState />;
  if (query.isError) return <Alert title={t('dialog.error')}>{query.error.message}</Alert>;
  return <>{children(query.data)}</>;
}
