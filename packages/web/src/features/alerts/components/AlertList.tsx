import { alertSeverity, type Alert } from '@flowbox/shared';
import { useEffect } from 'react';
import { EmptyState } from '../../../components/EmptyState.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { Button } from '../../../components/Button.tsx';
import { ANY_ROLE, canDo, hasRole, useUser } from '../../auth/index.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useAlerts, type AlertFilters } from '../api/list-alerts.ts';
import { useOpenAlerts } from '../api/open-alerts.ts';
import { AlertItem } from './AlertItem.tsx';

/** The alerts this tab already told the server were opened. */
const openedHere = new Set<string>();

/**
 * Shown is opened (docs/alerts.md "Escalation"): the open critical alerts on screen are told to the
 * server once, so that their "if not opened" channels stay quiet for this person.
 */
function useOpenShown(items: readonly Alert[] | undefined) {
  const { mutate } = useOpenAlerts();
  useEffect(() => {
    const fresh = (items ?? [])
      .filter((a) => a.state === 'open' && alertSeverity(a.category) === 'critical' && !openedHere.has(a.id))
      .map((a) => a.id)
      .slice(0, 100);
    if (fresh.length === 0) return;
    for (const id of fresh) openedHere.add(id);
    mutate(fresh, { onError: () => fresh.forEach((id) => openedHere.delete(id)) });
  }, [items, mutate]);
}

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
  useOpenShown(alerts.data?.pages.flatMap((page) => page.items));
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
