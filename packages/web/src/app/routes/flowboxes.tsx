import { AutomationLockedBanner } from '../../features/automation/widgets.ts';
import { FlowboxConsumptionCard } from '../../features/consumption/widgets.ts';
import { FlowboxFirmwareCard } from '../../features/firmware/widgets.ts';
import { FlowboxDetailPage } from '../../features/flowboxes/pages.ts';

/** A flowbox's page with its zone's automatic closing banner, its firmware and its water. */
export function FlowboxDetailRoute() {
  return (
    <FlowboxDetailPage
      widgets={{
        automationBanner: ({ flowboxRef }, zoneName) => (
          <AutomationLockedBanner zoneRef={flowboxRef} zoneName={zoneName} />
        ),
        firmware: ({ flowboxRef }) => <FlowboxFirmwareCard flowboxRef={flowboxRef} />,
        consumption: ({ flowboxRef: { customerId, siteId, buildingId, zoneId }, flowbox }) => (
          <FlowboxConsumptionCard
            target={{ customerId, siteId, buildingId, zoneId }}
            flowboxId={flowbox.id}
          />
        ),
      }}
    />
  );
}
