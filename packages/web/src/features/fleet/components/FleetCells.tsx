import type { FleetRow } from '@flowbox/shared';
import { Link } from 'react-router';
import { Badge } from '../../../components/Badge.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';

/* The facts of a flowbox's row, told alike by the desktop table and the phone cards. */

/** Connected or not, and since when. */
export function Connection({ row }: { row: FleetRow }) {
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

export function Valve({ row }: { row: FleetRow }) {
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

export function Alerts({ row }: { row: FleetRow }) {
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

export function SerialLink({ row }: { row: FleetRow }) {
  return (
    <Link
      to={paths.flowbox.getHref(row.customer_id, row.site_id, row.building_id, row.zone_id, row.id)}
      className="font-mono font-medium text-sky-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-sky-600 dark:text-sky-400"
    >
      {row.serial}
    </Link>
  );
}
