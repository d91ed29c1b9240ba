import { alertsEn, alertsFr } from './alerts.ts';
import { assistantEn, assistantFr } from './assistant.ts';
import { automationEn, automationFr } from './automation.ts';
import { billingEn, billingFr } from './billing.ts';
import { buildingsEn, buildingsFr } from './buildings.ts';
import { consumptionEn, consumptionFr } from './consumption.ts';
import { firmwareEn, firmwareFr } from './firmware.ts';
import { firmwareLogEn, firmwareLogFr } from './firmware-log.ts';
import { flowboxesEn, flowboxesFr } from './flowboxes.ts';
import { schedulesEn, schedulesFr } from './schedules.ts';
import { screensEn, screensFr } from './screens.ts';
import { zonesEn, zonesFr } from './zones.ts';

/**
 * The signed-in screens' texts, EN and FR: a chunk of their own, loaded with the app shell
 * (loadFeatureTexts in index.ts), so the sign-in pages do not download them.
 */
export const featuresEn = {
  ...screensEn,
  ...buildingsEn,
  ...zonesEn,
  ...automationEn,
  ...flowboxesEn,
  ...firmwareEn,
  ...billingEn,
  ...schedulesEn,
  ...assistantEn,
  ...consumptionEn,
  ...alertsEn,
  ...firmwareLogEn,
};

export type FeatureMessageKey = keyof typeof featuresEn;

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
};
