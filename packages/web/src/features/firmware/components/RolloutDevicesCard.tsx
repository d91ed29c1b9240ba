import { ALL_FIRMWARE_UPDATE_STATES, type FirmwareUpdateState, type Rollout } from '@flowbox/shared';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/Button.tsx';
import { Card } from '../../../components/Card.tsx';
import { DataTable, type Column } from '../../../components/DataTable.tsx';
import { Select } from '../../../components/Select.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { useLiveStatus } from '../../../lib/live.ts';
import { isRolloutOver } from '../api/get-rollout.ts';
import { rolloutRefetchMs } from '../rollout-live.ts';
import {
  useRolloutDevices,
  type RolloutDevice,
  type RolloutDeviceFilters,
} from '../api/list-rollout-devices.ts';
import { formatPercent } from '../format.ts';
import { waveBars } from '../waves.ts';
import { ReasonText } from './ReasonText.tsx';
import { UpdateStateBadge } from './UpdateStateBadge.tsx';

/** The rollout's devices: state, progress, reason and last message, filtered by state and wave, a page at a time. */
export function RolloutDevicesCard({ rollout }: { rollout: Rollout }) {
  const { t, language } = useLanguage();
  const [filters, setFilters] = useState<RolloutDeviceFilters>({});
  const live = useLiveStatus();
  const devices = useRolloutDevices(rollout.id, filters, rolloutRefetchMs(isRolloutOver(rollout), live));
  const waves = waveBars(rollout).map((bar) => bar.wave);
  const columns: Column<RolloutDevice>[] = [
    {
      key: 'serial',
      header: t('flowboxes.serial'),
      rowHeader: true,
      cell: (d) => (
        <Link
          to={paths.flowbox.getHref(d.customer_id, d.site_id, d.building_id, d.zone_id, d.flowbox_id)}
          className="font-mono text-sky-700 hover:underline dark:text-sky-400"
        >
          {d.serial}
        </Link>
      ),
    },
    { key: 'wave', header: t('firmware.wave'), cell: (d) => d.wave ?? '—' },
    {
      key: 'state',
      header: t('firmware.state_label'),
      cell: (d) => (
        <span className="flex flex-col items-start gap-1">
          <UpdateStateBadge state={d.state} />
          {d.progress_pct !== null && d.state === 'started' && (
            <span className="text-xs text-slate-600 dark:text-slate-400">
              {formatPercent(d.progress_pct, language)}
            </span>
          )}
        </span>
      ),
    },
    {
      key: 'reason',
      header: t('firmware.reason_label'),
      cell: (d) => (d.reason ? <ReasonText reason={d.reason} /> : '—'),
    },
    {
      key: 'versions',
      header: t('firmware.from_version'),
      hideOnMobile: true,
      cell: (d) => d.from_version ?? t('flowbox.unknown'),
    },
    {
      key: 'last',
      header: t('firmware.last_message'),
      hideOnMobile: true,
      cell: (d) => formatDateTime(d.last_message_at ?? d.state_changed_at, language),
    },
  ];
  const items = devices.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Card title={t('firmware.devices')}>
      <div className="mb-4 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:max-w-xl">
        <Select
          label={t('firmware.filter.state')}
          name="state"
          value={filters.state ?? ''}
          placeholder={t('firmware.filter.all_states')}
          options={ALL_FIRMWARE_UPDATE_STATES.map((s) => ({ value: s, label: t(`firmware.state.${s}`) }))}
          onChange={(event) =>
            setFilters((f) => ({
              ...f,
              state: (event.target.value || undefined) as FirmwareUpdateState | undefined,
            }))
          }
        />
        <Select
          label={t('firmware.filter.wave')}
          name="wave"
          value={filters.wave ? String(filters.wave) : ''}
          placeholder={t('firmware.filter.all_waves')}
          options={waves.map((w) => ({ value: String(w), label: t('firmware.wave_n', { wave: w }) }))}
          onChange={(event) =>
            setFilters((f) => ({ ...f, wave: event.target.value ? Number(event.target.value) : undefined }))
          }
        />
      </div>
      {devices.isPending ? (
        <Spinner label={t('common.loading')} />
      ) : devices.isError ? (
        <p role="alert">{devices.error.message}</p>
      ) : (
        <>
          <DataTable
            caption={t('firmware.devices')}
            columns={columns}
            rows={items}
            rowKey={(d) => d.id}
            empty={t('firmware.devices_empty')}
          />
          {devices.hasNextPage && (
            <div className="mt-4 flex justify-center">
              <Button
                variant="secondary"
                loading={devices.isFetchingNextPage}
                onClick={() => void devices.fetchNextPage()}
              >
                {t('firmware.load_more')}
              </Button>
            </div>
          )}
        </>
      )}
    </Card>
  );
}
