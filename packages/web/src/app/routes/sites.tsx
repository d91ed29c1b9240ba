import { OpenAlertsCard } from '../../features/alerts/widgets.ts';
import { BuildingsSection } from '../../features/buildings/widgets.ts';
import { ConsumptionCard, ZonesComparisonCard } from '../../features/consumption/widgets.ts';
import { SiteOverviewPage } from '../../features/sites/pages.ts';

/** A site's page with its alerts, water and buildings. */
export function SiteOverviewRoute() {
  return (
    <SiteOverviewPage
      widgets={{
        openAlerts: ({ site }) => <OpenAlertsCard scope={{ site_id: site.id }} name={site.name} />,
        consumption: ({ customerId, site }) => (
          <ConsumptionCard target={{ customerId, siteId: site.id }} name={site.name} />
        ),
        zonesComparison: ({ customerId, site }) => (
          <ZonesComparisonCard target={{ customerId, siteId: site.id }} />
        ),
        buildings: ({ customerId, site }) => <BuildingsSection customerId={customerId} siteId={site.id} />,
      }}
    />
  );
}
