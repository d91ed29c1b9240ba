import { OpenAlertsCard } from '../../features/alerts/widgets.ts';
import { BuildingOverviewPage } from '../../features/buildings/pages.ts';
import { ConsumptionCard, ZonesComparisonCard } from '../../features/consumption/widgets.ts';
import { LeakCard } from '../../features/leaks/widgets.ts';
import { WaterBalanceCard } from '../../features/water-balance/widgets.ts';

const targetOf = ({ customer_id, site_id, id }: { customer_id: string; site_id: string; id: string }) => ({
  customerId: customer_id,
  siteId: site_id,
  buildingId: id,
});

/** A building's page with its alerts, water, leaks and water balance. */
export function BuildingOverviewRoute() {
  return (
    <BuildingOverviewPage
      widgets={{
        openAlerts: ({ building }) => (
          <OpenAlertsCard scope={{ building_id: building.id }} name={building.name} />
        ),
        consumption: ({ building }) => <ConsumptionCard target={targetOf(building)} name={building.name} />,
        zonesComparison: ({ building }) => <ZonesComparisonCard target={targetOf(building)} />,
        leaks: ({ building }) => <LeakCard target={targetOf(building)} />,
        waterBalance: ({ building, manages, zones }) => (
          <WaterBalanceCard
            building={{ ...targetOf(building), timezone: building.timezone }}
            manages={manages}
            zones={zones}
          />
        ),
      }}
    />
  );
}
