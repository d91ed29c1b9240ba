import type { ZoneSummary } from '@flowbox/shared';
import { Link } from 'react-router';
import { DataTable, type Column } from '../../../components/DataTable.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';

const link = 'text-sky-700 hover:underline dark:text-sky-400';

/**
 * spec §6 dashboard: a site manager's (and a plumber's) zones with where they are, each a link into
 * the hierarchy; cards on a phone, where the table scrolled sideways.
 */
export function ZonesDirectory({ zones }: { zones: readonly ZoneSummary[] }) {
  const { t } = useLanguage();
  const columns: Column<ZoneSummary>[] = [
    {
      key: 'name',
      header: t('fields.name'),
      rowHeader: true,
      cell: (z) => (
        <Link to={paths.zone.getHref(z.customer_id, z.site_id, z.building_id, z.id)} className={link}>
          {z.name}
        </Link>
      ),
    },
    {
      key: 'building',
      header: t('dashboard.building'),
      cell: (z) => (
        <Link to={paths.building.getHref(z.customer_id, z.site_id, z.building_id)} className={link}>
          {z.building_name}
        </Link>
      ),
    },
    {
      key: 'site',
      header: t('dashboard.site'),
      hideOnMobile: true,
      cell: (z) => (
        <Link to={paths.site.getHref(z.customer_id, z.site_id)} className={link}>
          {z.site_name}
        </Link>
      ),
    },
    {
      key: 'floor',
      header: t('dashboard.floor'),
      hideOnMobile: true,
      cell: (z) => z.floor_label ?? '—',
    },
    {
      key: 'profile',
      header: t('dashboard.profile'),
      hideOnMobile: true,
      cell: (z) => t(`zones.profile.${z.profile}`),
    },
    { key: 'points', header: t('dashboard.water_points'), cell: (z) => z.water_point_count },
  ];
  return (
    <DataTable
      phoneCards
      caption={t('dashboard.zones')}
      columns={columns}
      rows={zones}
      rowKey={(z) => z.id}
      empty={t('dashboard.no_zones')}
    />
  );
}
