import type { FleetRow, FleetSort } from '@flowbox/shared';
import { TableScroll } from '../../../components/TableScroll.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import type { FleetFilters } from '../api/list-fleet.ts';
import { Alerts, Connection, SerialLink, Valve } from './FleetCells.tsx';

/** Desktop: one accessible table, the sorted column marked (aria-sort). */
export function FleetTable({ rows, filters }: { rows: FleetRow[]; filters: FleetFilters }) {
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
