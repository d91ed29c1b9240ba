import {
  FLEET_SORT_DIRECTIONS,
  FLEET_SORTS,
  FLOWBOX_MODELS,
  type FleetRow,
  type FleetSort,
  type FlowboxModel,
} from '@flowbox/shared';
import { useCallback, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Badge } from '../../../components/Badge.tsx';
import { Button } from '../../../components/Button.tsx';
import { CardList } from '../../../components/CardList.tsx';
import { EmptyState } from '../../../components/EmptyState.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { Select } from '../../../components/Select.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { TableScroll } from '../../../components/TableScroll.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { ANY_ROLE, canDo, useUser } from '../../auth/index.ts';
import { useDownloadFleetCsv, useFleetPage, type FleetFilters } from '../api/fleet.ts';
import { FirmwareFilter, SerialSearch } from './TextFilters.tsx';

const FLAGS = ['closed', 'locked', 'leaking', 'night_above_allowance'] as const;
/** Continuous flow for at least this many days (leak analytics' hour counter). */
const CONTINUOUS_FLOW_DAYS = ['1', '2', '3', '7', '14'] as const;
type Flag = (typeof FLAGS)[number];

/** The filters and sort live in the address: a filtered view is a link (the dashboard's figures). */
function useFilters(): [FleetFilters, (patch: Record<string, string | undefined>) => void] {
  const [params, setParams] = useSearchParams();
  const sort = params.get('sort');
  const dir = params.get('dir');
  const model = params.get('model');
  const filters: FleetFilters = {
    ...Object.fromEntries(FLAGS.filter((f) => params.get(f) === 'true').map((f) => [f, 'true'])),
    // Online (false) or offline (true): the dashboard links to either.
    ...(params.get('offline') === 'true' || params.get('offline') === 'false'
      ? { offline: params.get('offline') as 'true' | 'false' }
      : {}),
    ...(params.get('q') ? { q: params.get('q')! } : {}),
    ...((CONTINUOUS_FLOW_DAYS as readonly string[]).includes(params.get('continuous_flow_days') ?? '')
      ? { continuous_flow_days: params.get('continuous_flow_days')! }
      : {}),
    ...(params.get('firmware_version') ? { firmware_version: params.get('firmware_version')! } : {}),
    ...(model && (FLOWBOX_MODELS as readonly string[]).includes(model)
      ? { model: model as FlowboxModel }
      : {}),
    ...(sort && (FLEET_SORTS as readonly string[]).includes(sort) ? { sort: sort as FleetSort } : {}),
    ...(dir === 'desc' ? { dir: 'desc' as const } : {}),
  };
  const update = useCallback(
    (patch: Record<string, string | undefined>) =>
      setParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          for (const [key, value] of Object.entries(patch)) {
            if (value) next.set(key, value);
            else next.delete(key);
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [filters, update];
}

function Connection({ row }: { row: FleetRow }) {
  const { t, language } = useLanguage();
  const tone =
    row.connection === 'connected'
      ? 'text-emerald-700 dark:text-emerald-400'
      : 'text-amber-700 dark:text-amber-400';
  return (
    <span>
      <span className={`font-medium ${tone}`}>{t(`fleet.connection.${row.connection}`)}</span>
      {row.connection_since && (
        <span className="block text-xs text-slate-500 dark:text-slate-400">
          {t('fleet.since', { date: formatDateTime(row.connection_since, language) })}
        </span>
      )}
    </span>
  );
}

function Valve({ row }: { row: FleetRow }) {
  const { t } = useLanguage();
  return (
    <span className="flex flex-wrap gap-1">
      <span className={row.valve === 'closed' ? 'font-medium text-red-700 dark:text-red-400' : ''}>
        {t(`fleet.valve.${row.valve ?? 'unknown'}`)}
      </span>
      {row.zone_locked && <Badge tone="bad">{t('fleet.locked')}</Badge>}
    </span>
  );
}

function Alerts({ row }: { row: FleetRow }) {
  const { t } = useLanguage();
  return (
    <span className="flex flex-wrap items-center gap-1">
      {row.open_alerts > 0 ? (
        <Link
          to={`${paths.alerts.getHref()}?zone_id=${row.zone_id}`}
          className="font-semibold text-sky-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-sky-600 dark:text-sky-400"
        >
          {row.open_alerts}
        </Link>
      ) : (
        <span>0</span>
      )}
      {row.leaking && <Badge tone="bad">{t('fleet.leaking')}</Badge>}
    </span>
  );
}

function SerialLink({ row }: { row: FleetRow }) {
  return (
    <Link
      to={paths.flowbox.getHref(row.customer_id, row.site_id, row.building_id, row.zone_id, row.id)}
      className="font-mono font-medium text-sky-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-sky-600 dark:text-sky-400"
    >
      {row.serial}
    </Link>
  );
}

/** Desktop: one accessible table, the sorted column marked (aria-sort). */
function FleetTable({ rows, filters }: { rows: FleetRow[]; filters: FleetFilters }) {
  const { t, language } = useLanguage();
  const sortOf: Partial<Record<string, FleetSort>> = {
    serial: 'serial',
    place: 'customer',
    firmware: 'firmware',
    last_reading: 'last_reading',
    alerts: 'open_alerts',
  };
  const ariaSort = (column: string) =>
    sortOf[column] && sortOf[column] === (filters.sort ?? 'serial')
      ? filters.dir === 'desc'
        ? 'descending'
        : 'ascending'
      : undefined;
  const columns: [string, string][] = [
    ['serial', t('fleet.col.serial')],
    ['place', t('fleet.col.place')],
    ['zone', t('fleet.col.zone')],
    ['connection', t('fleet.col.connection')],
    ['valve', t('fleet.col.valve')],
    ['firmware', t('fleet.col.firmware')],
    ['last_reading', t('fleet.col.last_reading')],
    ['alerts', t('fleet.col.alerts')],
  ];
  return (
    <TableScroll
      label={t('fleet.caption')}
      className="hidden overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm md:block dark:border-slate-800 dark:bg-slate-900"
    >
      <table className="min-w-full divide-y divide-slate-200 text-sm dark:divide-slate-800">
        <caption className="sr-only">{t('fleet.caption')}</caption>
        <thead className="bg-slate-50 dark:bg-slate-800/60">
          <tr>
            {columns.map(([key, header]) => (
              <th
                key={key}
                scope="col"
                aria-sort={ariaSort(key)}
                className="px-3 py-3 text-left align-bottom text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-300"
              >
                {header}
                {ariaSort(key) && <span aria-hidden="true">{filters.dir === 'desc' ? ' ↓' : ' ↑'}</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {rows.map((row) => (
            <tr key={row.id} className="hover:bg-slate-50 dark:hover:bg-slate-800/40">
              <th scope="row" className="px-3 py-2 text-left align-top whitespace-nowrap">
                <SerialLink row={row} />
                {row.model && (
                  <span className="block text-xs font-normal text-slate-500 dark:text-slate-400">
                    {t(`zones.flowbox_model.${row.model}`)}
                  </span>
                )}
              </th>
              <td className="px-3 py-2 align-top">
                {row.customer_name}
                <span className="block text-xs text-slate-500 dark:text-slate-400">{row.site_name}</span>
              </td>
              <td className="px-3 py-2 align-top">
                {row.building_name}
                <span className="block text-xs text-slate-500 dark:text-slate-400">{row.zone_name}</span>
              </td>
              <td className="px-3 py-2 align-top">
                <Connection row={row} />
              </td>
              <td className="px-3 py-2 align-top">
                <Valve row={row} />
              </td>
              <td className="px-3 py-2 align-top font-mono text-xs">
                {row.firmware_version ?? t('fleet.unknown')}
              </td>
              <td className="px-3 py-2 align-top whitespace-nowrap">
                {row.last_reading_at ? formatDateTime(row.last_reading_at, language) : t('fleet.never')}
              </td>
              <td className="px-3 py-2 align-top">
                <Alerts row={row} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** Phones (390 px): one card per flowbox, the same facts as labelled pairs. */
function FleetCards({ rows }: { rows: FleetRow[] }) {
  const { t, language } = useLanguage();
  return (
    <CardList
      label={t('fleet.caption')}
      rows={rows}
      rowKey={(row) => row.id}
      title={(row) => <SerialLink row={row} />}
      aside={(row) => <Connection row={row} />}
      summary={(row) => `${row.customer_name} · ${row.site_name} · ${row.building_name} · ${row.zone_name}`}
      fields={(row) => [
        { key: 'valve', label: t('fleet.col.valve'), value: <Valve row={row} /> },
        {
          key: 'firmware',
          label: t('fleet.col.firmware'),
          value: row.firmware_version ?? t('fleet.unknown'),
        },
        {
          key: 'last_reading',
          label: t('fleet.col.last_reading'),
          value: row.last_reading_at ? formatDateTime(row.last_reading_at, language) : t('fleet.never'),
        },
        { key: 'alerts', label: t('fleet.col.alerts'), value: <Alerts row={row} /> },
      ]}
    />
  );
}

/** The fleet at a glance (issue #18): every flowbox in the user's scope, filtered, sorted, paged. */
export function FleetPage() {
  const { t } = useLanguage();
  const [filters, update] = useFilters();
  // Keyset pages: the cursors of the pages before this one, so "Previous" goes back; a change of
  // filters starts again from the first page.
  const filterKey = JSON.stringify(filters);
  const [trail, setTrail] = useState<{ key: string; cursors: (string | undefined)[] }>({
    key: filterKey,
    cursors: [undefined],
  });
  const cursors = trail.key === filterKey ? trail.cursors : [undefined];
  const setCursors = (next: (c: (string | undefined)[]) => (string | undefined)[]) =>
    setTrail({ key: filterKey, cursors: next(cursors) });
  const cursor = cursors.at(-1);
  const page = useFleetPage(filters, cursor);
  // The total comes with the first page (cached once fetched).
  const first = useFleetPage(filters, undefined);
  const total = first.data?.total ?? null;
  const download = useDownloadFleetCsv();
  const onSearch = useCallback((q: string) => update({ q: q || undefined }), [update]);
  const onFirmware = (version: string) => update({ firmware_version: version || undefined });
  // docs/fleet.md: the export needs consumption.export; the list does not.
  const user = useUser();
  const mayExport = canDo(user, ANY_ROLE, 'consumption.export');
  const filtered = Object.keys(filters).some((k) => k !== 'sort' && k !== 'dir');
  return (
    <>
      <PageHeader
        title={t('fleet.title')}
        description={t('fleet.description')}
        actions={
          mayExport && (
            <Button variant="secondary" loading={download.isPending} onClick={() => download.mutate(filters)}>
              {t('fleet.export')}
            </Button>
          )
        }
      />
      {download.isError && (
        <p role="alert" className="mb-3 text-sm text-red-700 dark:text-red-400">
          {t('fleet.export_failed')}
        </p>
      )}
      <section
        aria-label={t('fleet.filters')}
        className="mb-4 grid gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-4 dark:border-slate-800 dark:bg-slate-900"
      >
        <SerialSearch value={filters.q ?? ''} onSearch={onSearch} />
        <FirmwareFilter value={filters.firmware_version ?? ''} onApply={onFirmware} />
        <Select
          label={t('fleet.filter.model')}
          name="model"
          value={filters.model ?? ''}
          placeholder={t('fleet.filter.all_models')}
          onChange={(event) => update({ model: event.target.value || undefined })}
          options={FLOWBOX_MODELS.map((m) => ({ value: m, label: t(`zones.flowbox_model.${m}`) }))}
        />
        <Select
          label={t('fleet.filter.connection')}
          name="offline"
          value={filters.offline ?? ''}
          placeholder={t('fleet.filter.any_connection')}
          onChange={(event) => update({ offline: event.target.value || undefined })}
          options={[
            { value: 'false', label: t('fleet.connection.connected') },
            { value: 'true', label: t('fleet.filter.offline') },
          ]}
        />
        <Select
          label={t('fleet.filter.continuous_flow')}
          name="continuous_flow_days"
          value={filters.continuous_flow_days === undefined ? '' : String(filters.continuous_flow_days)}
          placeholder={t('fleet.filter.any_flow')}
          onChange={(event) => update({ continuous_flow_days: event.target.value || undefined })}
          options={CONTINUOUS_FLOW_DAYS.map((days) => ({
            value: days,
            label: t('fleet.filter.continuous_flow_days', { count: Number(days) }),
          }))}
        />
        <Select
          label={t('fleet.sort')}
          name="sort"
          value={filters.sort ?? 'serial'}
          onChange={(event) =>
            update({ sort: event.target.value === 'serial' ? undefined : event.target.value })
          }
          options={FLEET_SORTS.map((s) => ({ value: s, label: t(`fleet.sort.${s}`) }))}
        />
        <Select
          label={t('fleet.dir')}
          name="dir"
          value={filters.dir ?? 'asc'}
          onChange={(event) => update({ dir: event.target.value === 'desc' ? 'desc' : undefined })}
          options={FLEET_SORT_DIRECTIONS.map((d) => ({ value: d, label: t(`fleet.dir.${d}`) }))}
        />
        <fieldset className="flex flex-wrap items-center gap-x-4 gap-y-2 sm:col-span-2 lg:col-span-4">
          <legend className="sr-only">{t('fleet.filters')}</legend>
          {FLAGS.map((flag: Flag) => (
            <label key={flag} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                name={flag}
                checked={filters[flag] === 'true'}
                onChange={(event) => update({ [flag]: event.target.checked ? 'true' : undefined })}
                className="size-4 rounded border-slate-300 text-sky-700 focus-visible:outline-2 focus-visible:outline-sky-600"
              />
              {t(`fleet.filter.${flag}`)}
            </label>
          ))}
          {filtered && (
            <Button
              variant="ghost"
              onClick={() =>
                update(
                  Object.fromEntries(
                    [...FLAGS, 'offline', 'q', 'firmware_version', 'model', 'continuous_flow_days'].map(
                      (k) => [k, undefined],
                    ),
                  ),
                )
              }
            >
              {t('fleet.filter.clear')}
            </Button>
          )}
        </fieldset>
      </section>
      <p
        aria-live="polite"
        className="mb-2 flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400"
      >
        {total !== null && t('fleet.total', { count: total })}
        {page.isFetching && <Spinner size="sm" />}
      </p>
      {/* A failure or a refusal is told as such: "no flowbox matches" is only for an empty answer. */}
      <QueryBoundary query={page}>
        {(data) =>
          data.items.length === 0 ? (
            <EmptyState title={filtered ? t('fleet.empty') : t('fleet.empty_none')} />
          ) : (
            <>
              <FleetTable rows={data.items} filters={filters} />
              <FleetCards rows={data.items} />
            </>
          )
        }
      </QueryBoundary>
      {(cursors.length > 1 || page.data?.next_cursor) && (
        <nav aria-label={t('fleet.page')} className="mt-4 flex items-center justify-between gap-2 text-sm">
          <p className="text-slate-600 dark:text-slate-400">
            {t('fleet.page_number', { page: cursors.length })}
          </p>
          <div className="flex gap-2">
            <Button
              variant="secondary"
              disabled={cursors.length <= 1}
              onClick={() => setCursors((c) => c.slice(0, -1))}
            >
              {t('fleet.previous')}
            </Button>
            <Button
              variant="secondary"
              disabled={!page.data?.next_cursor || page.isPlaceholderData}
              onClick={() => setCursors((c) => [...c, page.data!.next_cursor!])}
            >
              {t('fleet.next')}
            </Button>
          </div>
        </nav>
      )}
    </>
  );
}
