import type { FeatureMessageKey } from './features.ts';
import { alertsFr } from './fr/alerts.ts';
import { assistantFr } from './fr/assistant.ts';
import { automationFr } from './fr/automation.ts';
import { billingFr } from './fr/billing.ts';
import { buildingsFr } from './fr/buildings.ts';
import { consumptionFr } from './fr/consumption.ts';
import { endusersFr } from './fr/endusers.ts';
import { firmwareFr } from './fr/firmware.ts';
import { firmwareLogFr } from './fr/firmware-log.ts';
import { fleetFr } from './fr/fleet.ts';
import { flowboxesFr } from './fr/flowboxes.ts';
import { myzoneFr } from './fr/myzone.ts';
import { plumbersFr } from './fr/plumbers.ts';
import { plumberwebFr } from './fr/plumberweb.ts';
import { schedulesFr } from './fr/schedules.ts';
import { screensFr } from './fr/screens.ts';
import { zonesFr } from './fr/zones.ts';
import { peopleFr } from './fr/people.ts';
import { leaksFr } from './fr/leaks.ts';
import { waterBalanceFr } from './fr/water-balance.ts';
import { webhooksFr } from './fr/webhooks.ts';
import { pushFr } from './fr/push.ts';
import { reportsFr } from './fr/reports.ts';

/** The signed-in screens' texts in French: loaded only while French is, or was, on screen. */
export const featuresFr: Record<FeatureMessageKey, string> = {
  ...screensFr,
  ...buildingsFr,
  ...zonesFr,
  ...automationFr,
  ...flowboxesFr,
  ...firmwareFr,
  ...billingFr,
  ...schedulesFr,
  ...assistantFr,
  ...consumptionFr,
  ...alertsFr,
  ...firmwareLogFr,
  ...fleetFr,
  ...plumbersFr,
  ...endusersFr,
  ...plumberwebFr,
  ...myzoneFr,
  ...peopleFr,
  ...leaksFr,
  ...waterBalanceFr,
  ...webhooksFr,
  ...pushFr,
  ...reportsFr,
};
