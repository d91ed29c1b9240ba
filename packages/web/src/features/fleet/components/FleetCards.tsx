import type { FleetRow } from '@flowbox/shared';
import { CardList } from '../../../components/CardList.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { Alerts, Connection, SerialLink, Valve } from './FleetCells.tsx';

/** Phones (390 px): one card per flowbox, the same facts as labelled pairs. */
export function FleetCards({ rows }: { rows: FleetRow[] }) {
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
