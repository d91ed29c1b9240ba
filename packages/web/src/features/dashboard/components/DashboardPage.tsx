import { ROLES, type Comparison, type Customer, type Site } from '@flowbox/shared';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ButtonLink } from '../../../components/Button.tsx';
import { Card } from '../../../components/Card.tsx';
import { DataTable, type Column } from '../../../components/DataTable.tsx';
import { EmptyState } from '../../../components/EmptyState.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { useUser } from '../../auth/index.ts';
import { useCustomers } from '../../customers/index.ts';
import { useSites } from '../../sites/index.ts';
import { useCustomerZones } from '../api/list-customer-zones.ts';
import { CUSTOMERS } from '../prefetch.ts';
import { TodayStatistics } from './TodayStatistics.tsx';
import { ZonesDirectory } from './ZonesDirectory.tsx';

/**
 * What other features lend the dashboard, composed by the app (app/routes/dashboard.tsx): the open
 * alerts, the tables of customers and sites, and how today compares with the usual.
 */
export type DashboardWidgets = {
  openAlerts: () => ReactNode;
  customerColumns: (t: TFunction) => Column<Customer>[];
  sitesTable: (customerId: string, sites: readonly Site[]) => ReactNode;
  comparison: (comparison: Comparison) => ReactNode;
};

/** spec §6: the dashboard customers view is the provider's. */
function CustomersOverview({ widgets }: { widgets: DashboardWidgets }) {
  const { t } = useLanguage();
  const customers = useCustomers(CUSTOMERS);
  const columns = widgets.customerColumns(t);
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
function SitesOverview({
  customerId,
  withZones,
  widgets,
}: {
  customerId: string;
  withZones: boolean;
  widgets: DashboardWidgets;
}) {
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
        <QueryBoundary query={sites}>{(data) => widgets.sitesTable(customerId, data.items)}</QueryBoundary>
      </Card>
      {withZones && (
        <Card title={t('dashboard.your_zones')}>
          <QueryBoundary query={zones}>{(data) => <ZonesDirectory zones={data.items} />}</QueryBoundary>
        </Card>
      )}
    </>
  );
}

/**
 * docs/permissions.md: an end user's zone(s), where it lives; nothing of the zone next door. Each
 * is a large link to its phone-first home (issue 18); a single zone gets a prominent button too.
 */
function OwnZones({ customerId }: { customerId: string }) {
  const { t } = useLanguage();
  const zones = useCustomerZones(customerId);
  return (
    <Card title={t('endusers.your_zone')}>
      <QueryBoundary query={zones}>
        {(data) => (
          <>
            <ul className="space-y-2" data-testid="own-zones">
              {data.items.map((zone) => (
                <li key={zone.id}>
                  <Link
                    to={paths.myZone.getHref(zone.id)}
                    className="block min-h-12 rounded-lg border border-slate-200 p-3 hover:border-sky-400 hover:bg-sky-50 focus-visible:outline-2 focus-visible:outline-sky-600 dark:border-slate-800 dark:hover:bg-slate-800"
                  >
                    <span className="block text-lg font-semibold text-sky-800 dark:text-sky-300">
                      {zone.name}
                    </span>
                    <span className="block text-sm text-slate-600 dark:text-slate-400">
                      {zone.site_name} · {zone.building_name}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
            {data.items.length === 1 && data.items[0] && (
              <ButtonLink
                to={paths.myZone.getHref(data.items[0].id)}
                className="mt-3 min-h-12 w-full text-base sm:w-auto"
              >
                {t('myzone.open_home')}
              </ButtonLink>
            )}
          </>
        )}
      </QueryBoundary>
    </Card>
  );
}

export function DashboardPage({ widgets }: { widgets: DashboardWidgets }) {
  const { t } = useLanguage();
  const user = useUser();
  return (
    <>
      <PageHeader
        title={t('dashboard.title')}
        description={t('dashboard.welcome', { name: user.firstname })}
      />
      <div className="space-y-6">
        {user.role !== ROLES.plumber && <TodayStatistics comparison={widgets.comparison} />}
        {widgets.openAlerts()}
        {user.role === ROLES.end_user && user.customer_id ? (
          <OwnZones customerId={user.customer_id} />
        ) : user.role === ROLES.flovea_manager ? (
          <CustomersOverview widgets={widgets} />
        ) : user.customer_id ? (
          <SitesOverview
            customerId={user.customer_id}
            withZones={user.role === ROLES.site_manager || user.role === ROLES.plumber}
            widgets={widgets}
          />
        ) : (
          <EmptyState title={t('sites.empty')} />
        )}
      </div>
    </>
  );
}
