import { alertsEn } from './alerts.ts';
import { assistantEn } from './assistant.ts';
import { automationEn } from './automation.ts';
import { billingEn } from './billing.ts';
import { buildingsEn } from './buildings.ts';
import { consumptionEn } from './consumption.ts';
import { endusersEn } from './endusers.ts';
import { firmwareEn } from './firmware.ts';
import { firmwareLogEn } from './firmware-log.ts';
import { fleetEn } from './fleet.ts';
import { flowboxesEn } from './flowboxes.ts';
import { myzoneEn } from './myzone.ts';
import { plumbersEn } from './plumbers.ts';
import { plumberwebEn } from './plumberweb.ts';
import { schedulesEn } from './schedules.ts';
import { screensEn } from './screens.ts';
import { zonesEn } from './zones.ts';
import { peopleEn } from './people.ts';
import { leaksEn } from './leaks.ts';
import { waterBalanceEn } from './water-balance.ts';
import { webhooksEn } from './webhooks.ts';
import { pushEn } from './push.ts';
import { reportsEn } from './reports.ts';

/**
 * The signed-in screens' texts in English, the source and every language's fallback: a chunk of
 * their own, loaded with the app shell (loadFeatureTexts in index.ts), so the sign-in pages do not
 * download them. Each other language is a chunk of its own (features-fr.ts), loaded only for a user
 * who reads it.
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
  ...fleetEn,
  ...plumbersEn,
  ...endusersEn,
  ...plumberwebEn,
  ...myzoneEn,
  ...peopleEn,
  ...leaksEn,
  ...waterBalanceEn,
  ...webhooksEn,
  ...pushEn,
  ...reportsEn,
};

export type FeatureMessageKey = keyof typeof featuresEn;
