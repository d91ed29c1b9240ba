import { ROLES } from '@flowbox/shared';
import { Link } from 'react-router';
import { Card } from '../../../components/Card.tsx';
import { DataTable } from '../../../components/DataTable.tsx';
import { EmptyState } from '../../../components/EmptyState.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { useUser } from '../../auth/index.ts';
import { customerColumns, useCustomers } from '../../customers/index.ts';
import { SitesTable, useSites } from '../../sites/index.ts';
import { useCustomerZones } from '../api/list-customer-zones.ts';
import { OpenAlertsCard } from '../../alerts/index.ts';
import { TodayStatistics } from './TodayStatistics.tsx';
import { ZonesDirectory } from './ZonesDirectory.tsx';

/** spec §6: the dashboard customers view is the provider's. */
function CustomersOverview() {
  const { t } = useLanguage();
  const customers = useCustomers({ limit: 100, offset: 0 });
  const columns = customerColumns(t);
  return (
    <Card
      title={t('dashboard.customers')}
      actions={
        <Link
          to={paths.customers.getHref()}
          className="text-sm font-medium text-sky-700 hover:underline dark:text-sky-400"
        >
          {t('dashboard.all_customers')}
        </Link>
      }
    >
      <QueryBoundary query={customers}>
        {(data) => (
          <DataTable
            caption={t('dashboard.customers')}
            columns={columns}
            rows={data.items}
            rowKey={(c) => c.id}
            empty={t('customers.empty')}
          />
        )}
      </QueryBoundary>
    </Card>
  );
}

function CountTile({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <p className="text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">
        {label}
      </p>
      <p className="mt-1 text-2xl font-bold">{value}</p>
    </div>
  );
}

/**
 * spec §6: customer managers see their customer's sites; site managers their own sites, and what
 * they look after day to day: their buildings' zones.
 */
function SitesOverview({ customerId, withZones }: { customerId: string; withZones: boolean }) {
  const { t } = useLanguage();
  const sites = useSites(customerId);
  const zones = useCustomerZones(customerId);
  const buildingCount = sites.data?.items.reduce((sum, site) => sum + site.building_count, 0) ?? 0;
  const waterPointCount = zones.data?.items.reduce((sum, zone) => sum + zone.water_point_count, 0) ?? 0;
  return (
    <>
      {sites.data && zones.data && (
        <div className="grid grid-cols-2 gap-4 sm:grid-cols-4" data-testid="dashboard-counts">
          <CountTile label={t('customers.site_count')} value={sites.data.total} />
          <CountTile label={t('sites.building_count')} value={buildingCount} />
          <CountTile label={t('dashboard.zones')} value={zones.data.total} />
          <CountTile label={t('dashboard.water_points')} value={waterPointCount} />
        </div>
      )}
      <Card
        title={t('dashboard.sites')}
        actions={
          <Link
            to={paths.sites.getHref(customerId)}
            className="text-sm font-medium text-sky-700 hover:underline dark:text-sky-400"
          >
            {t('dashboard.all_sites')}
          </Link>
        }
      >
        <QueryBoundary query={sites}>
          {(data) => <SitesTable customerId={customerId} sites={data.items} empty={t('sites.empty')} />}
        </QueryBoundary>
      </Card>
      {withZones && (
        <Card title={t('dashboard.your_zones')}>
          <QueryBoundary query={zones}>{(data) => <ZonesDirectory zones={data.items} />}</QueryBoundary>
        </Card>
      )}
    </>
  );
}

export function DashboardPage() {
  const { t } = useLanguage();
  const user = useUser();
  return (
    <>
      <PageHeader
        title={t('dashboard.title')}
        description={t('dashboard.welcome', { name: user.firstname })}
      />
      <div className="space-y-6">
        <TodayStatistics />
        <OpenAlertsCard scope={{}} />
        {user.role === ROLES.flovea_manager ? (
          <CustomersOverview />
        ) : user.customer_id ? (
          <SitesOverview customerId={user.customer_id} withZones={user.role === ROLES.site_manager} />
        ) : (
          <EmptyState title={t('sites.empty')} />
        )}
      </div>
    </>
  );
}
