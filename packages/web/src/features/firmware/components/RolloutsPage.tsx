import { ROLLOUT_STATES, type Rollout, type RolloutState } from '@flowbox/shared';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button, ButtonLink } from '../../../components/Button.tsx';
import { DataTable, type Column } from '../../../components/DataTable.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { Select } from '../../../components/Select.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { rolloutsListKey, useRollouts } from '../api/list-rollouts.ts';
import { formatPercent, groupCounts, targetLabel } from '../format.ts';
import { FIRMWARE_MESSAGES } from '../rollout-live.ts';
import { rolloutDonePct } from '../waves.ts';
import { ProgressBar } from './ProgressBar.tsx';
import { RolloutStateBadge } from './RolloutStateBadge.tsx';
import { useLiveRefresh } from './useLiveRefresh.ts';

/** Pushes closer than this read the list once: it shows counts, not each device's step. */
const LIST_COALESCE_MS = 2000;
const everyStep = () => true;

/**
 * The rollouts the user may read (/firmware/rollouts), newest first, by state; their bars move with
 * the pushed steps of their devices (issue 17: the list was polled every two seconds).
 */
export function RolloutsPage() {
  const { t, language } = useLanguage();
  const [state, setState] = useState<RolloutState | undefined>(undefined);
  const live = useLiveRefresh(rolloutsListKey, FIRMWARE_MESSAGES, everyStep, LIST_COALESCE_MS);
  const rollouts = useRollouts(state, live);
  const columns: Column<Rollout>[] = [
    {
      key: 'version',
      header: t('firmware.version'),
      rowHeader: true,
      cell: (r) => (
        <Link
          to={paths.firmwareRollout.getHref(r.id)}
          className="text-sky-700 hover:underline dark:text-sky-400"
        >
          {t('firmware.rollout_title', { version: r.version })}
        </Link>
      ),
    },
    {
      key: 'target',
      header: t('firmware.target'),
      cell: (r) => targetLabel(r.target, t('firmware.place.whole_fleet')),
    },
    { key: 'state', header: t('firmware.state_label'), cell: (r) => <RolloutStateBadge state={r.state} /> },
    {
      key: 'progress',
      header: t('firmware.progress'),
      cell: (r) => {
        const counts = groupCounts(r.counts);
        return (
          <div className="min-w-32 space-y-1">
            <ProgressBar
              pct={rolloutDonePct(r)}
              label={t('firmware.progress_label', { version: r.version })}
            />
            <span className="text-xs text-slate-600 dark:text-slate-400">
              {t('firmware.progress_short', {
                pct: formatPercent(rolloutDonePct(r), language),
                failed: counts.failed,
                total: r.total,
              })}
            </span>
          </div>
        );
      },
    },
    {
      key: 'created',
      header: t('firmware.created'),
      hideOnMobile: true,
      cell: (r) =>
        t('firmware.by_on', {
          name: r.created_by_name ?? t('firmware.someone'),
          date: formatDateTime(r.created_at, language),
        }),
    },
  ];
  const items = rollouts.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <>
      <PageHeader
        title={t('firmware.rollouts')}
        description={t('firmware.rollouts_description')}
        breadcrumbs={[{ label: t('firmware.title'), to: paths.firmware.getHref() }]}
        actions={
          <ButtonLink to={paths.firmware.getHref()} variant="secondary">
            {t('firmware.catalogue')}
          </ButtonLink>
        }
      />
      <div className="mb-4 max-w-xs">
        <Select
          label={t('firmware.filter.rollout_state')}
          name="state"
          value={state ?? ''}
          placeholder={t('firmware.filter.all_states')}
          options={ROLLOUT_STATES.map((s) => ({ value: s, label: t(`firmware.rollout_state.${s}`) }))}
          onChange={(event) => setState((event.target.value || undefined) as RolloutState | undefined)}
        />
      </div>
      {rollouts.isPending ? (
        <Spinner label={t('common.loading')} />
      ) : rollouts.isError ? (
        <p role="alert">{rollouts.error.message}</p>
      ) : (
        <>
          <DataTable
            caption={t('firmware.rollouts')}
            columns={columns}
            rows={items}
            rowKey={(r) => r.id}
            empty={t('firmware.rollouts_empty')}
          />
          {rollouts.hasNextPage && (
            <div className="mt-4 flex justify-center">
              <Button
                variant="secondary"
                loading={rollouts.isFetchingNextPage}
                onClick={() => void rollouts.fetchNextPage()}
              >
                {t('firmware.load_more')}
              </Button>
            </div>
          )}
        </>
      )}
    </>
  );
}
