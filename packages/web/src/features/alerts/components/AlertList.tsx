import { EmptyState } from '../../../components/EmptyState.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { Button } from '../../../components/Button.tsx';
import { ANY_ROLE, canDo, hasRole, useUser } from '../../auth/index.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useAlerts, type AlertFilters } from '../api/list-alerts.ts';
import { AlertItem } from './AlertItem.tsx';

/** Alerts matching the filters, newest first, with "older" pages on demand. */
export function AlertList({
  filters,
  pageSize,
  emptyTitle,
  emptyText,
}: {
  filters: AlertFilters;
  pageSize?: number;
  emptyTitle: string;
  emptyText?: string;
}) {
  const { t } = useLanguage();
  const user = useUser();
  const alerts = useAlerts(filters, pageSize);
  const canManage = canDo(user, ANY_ROLE, 'alerts.manage');
  // The server answers the nearest plumbers to managers only (docs/maps.md).
  const canCallPlumber = hasRole(user, ANY_ROLE);
  if (alerts.isPending) return <Spinner />;
  if (alerts.isError) return <p role="alert">{alerts.error.message}</p>;
  const items = alerts.data.pages.flatMap((page) => page.items);
  if (items.length === 0) return <EmptyState title={emptyTitle}>{emptyText}</EmptyState>;
  return (
    <>
      <ul
        aria-label={t('alerts.list_caption')}
        className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900"
      >
        {items.map((alert) => (
          <AlertItem key={alert.id} alert={alert} canManage={canManage} canCallPlumber={canCallPlumber} />
        ))}
      </ul>
      {alerts.hasNextPage && pageSize === undefined && (
        <div className="mt-4 flex justify-center">
          <Button
            variant="secondary"
            loading={alerts.isFetchingNextPage}
            onClick={() => void alerts.fetchNextPage()}
          >
            {t('alerts.load_more')}
          </Button>
        </div>
      )}
    </>
  );
}
