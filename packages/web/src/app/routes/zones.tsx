import { OpenAlertsCard } from '../../features/alerts/widgets.ts';
import {
  AutomationCard,
  AutomationLockedBanner,
  AwayModeCard,
  BacktestPanel,
} from '../../features/automation/widgets.ts';
import { ComingPrice } from '../../features/billing/widgets.ts';
import { ConsumptionCard } from '../../features/consumption/widgets.ts';
import { FlowboxesSection, ZoneValveCard } from '../../features/flowboxes/widgets.ts';
import { LeakCard } from '../../features/leaks/widgets.ts';
import { ZoneSchedulesCard } from '../../features/schedules/widgets.ts';
import { ZoneEditPage, ZoneOverviewPage } from '../../features/zones/pages.ts';

/** A zone's page with the cards of the features under it: its valve, alerts, water, closings, flowboxes. */
export function ZoneOverviewRoute() {
  return (
    <ZoneOverviewPage
      widgets={{
        automationBanner: ({ zoneRef, zone }) => (
          <AutomationLockedBanner zoneRef={zoneRef} zoneName={zone.name} />
        ),
        valve: ({ zoneRef }) => <ZoneValveCard zoneRef={zoneRef} />,
        openAlerts: ({ zone }) => <OpenAlertsCard scope={{ zone_id: zone.id }} name={zone.name} />,
        consumption: ({ zoneRef, zone, consumptionEmpty }) => (
          <ConsumptionCard target={zoneRef} name={zone.name} empty={consumptionEmpty} />
        ),
        leaks: ({ zoneRef }) => <LeakCard target={zoneRef} />,
        automation: ({ zoneRef, zone, building }) => (
          <div className="space-y-6">
            <AutomationCard
              zoneRef={zoneRef}
              context={building ? { zone, timezone: building.timezone } : undefined}
            />
            {/* Issue 33: the residents' away mode, which the zone's managers may set too. */}
            <AwayModeCard zoneRef={zoneRef} />
          </div>
        ),
        schedules: ({ zoneRef, zone }) => (
          <ZoneSchedulesCard zoneRef={zoneRef} authorised={zone.scheduled_closing_authorised} />
        ),
        flowboxes: ({ zoneRef, zone, floors }) => (
          <FlowboxesSection zoneRef={zoneRef} zone={zone} floors={floors} />
        ),
        comingPrice: (terms) => <ComingPrice terms={terms} />,
      }}
    />
  );
}

/** A zone's settings, new ones tried first by automatic closing's backtest. */
export function ZoneEditRoute() {
  return (
    <ZoneEditPage backtest={(zoneRef, request) => <BacktestPanel zoneRef={zoneRef} request={request} />} />
  );
}
