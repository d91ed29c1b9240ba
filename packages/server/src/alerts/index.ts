/** The alerts module's public face (docs/alerts.md): what other domains and app.ts use. */
export type { AlertsOptions, ClearAlertInput, RaiseAlertInput, RaiseOutcome } from './alerts.service.ts';
export { AlertNotifier } from './notifier.ts';
export { zoneAnswerSummary } from './alert-answers.repo.ts';
export { CATEGORY_NAMES } from './alert-settings.ts';
export { alertPlaceOf, type AlertPlace } from './alert-place.ts';
export { ALERT_PUSH_CHANNEL, openedAlertCounts } from './alerts.repo.ts';
export {
  autotestAlert,
  continuousFlowAlert,
  NO_FLOW_FREE_HOUR_CAUSE,
  firmwareUpdateAlert,
  judgeClocks,
  conditionsListener,
  rebootAlert,
  rolloutHaltedAlert,
  valveCommandAlert,
} from './raisers.ts';
export { zonesNotFollowed, type AlertFollower } from './followed-zones.ts';

/** Critical alerts not silenced nor resolved are emailed again this often (docs/alerts.md). */
export const ALERT_ESCALATION_INTERVAL_MS = 30 * 60_000;

/** A paired flowbox silent this long opens flowbox_communication (docs/alerts.md). */
export const COMMUNICATION_TIMEOUT_MS = 10 * 60_000;
export { valveUnconfirmedCause } from './raisers.ts';
