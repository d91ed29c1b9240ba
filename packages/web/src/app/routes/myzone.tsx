import { WasThisYou } from '../../features/alerts/widgets.ts';
import { AwayModeCard } from '../../features/automation/widgets.ts';
import { ConsumptionCard } from '../../features/consumption/widgets.ts';
import { ValveControl } from '../../features/flowboxes/widgets.ts';
import { MyZonePage } from '../../features/myzone/pages.ts';
import { ZoneSchedulesCard } from '../../features/schedules/widgets.ts';

/**
 * An end user's zone home with its valve's buttons, its water, its scheduled closings, away mode
 * and "Was this you?" on its alert.
 */
export function MyZoneRoute() {
  return (
    <MyZonePage
      widgets={{
        valveControl: (props) => <ValveControl {...props} />,
        consumption: (zoneRef, zone, empty) => (
          <ConsumptionCard target={zoneRef} name={zone.name} empty={empty} />
        ),
        schedules: (zoneRef, zone) => (
          <ZoneSchedulesCard zoneRef={zoneRef} authorised={zone.scheduled_closing_authorised} />
        ),
        awayMode: (zoneRef) => <AwayModeCard zoneRef={zoneRef} />,
        wasThisYou: (alert) => <WasThisYou alert={alert} />,
      }}
    />
  );
}
