/** spec §3 alert settings: the eight categories. */
export const ALERT_CATEGORIES = [
  'water_temperature',
  'flowbox_internal_status',
  'abnormal_water_consumption_no_ac',
  'abnormal_water_consumption_with_ac',
  'flowbox_dysfunction',
  'flowbox_communication',
  'maintenance',
  'leakage_detection',
] as const;

export type AlertCategory = (typeof ALERT_CATEGORIES)[number];

/**
 * "Was this you?" (issue 33): asked on every leak and abnormal-use alert, answered by the zone's end
 * users and managers (`POST /v1/alerts/{id}/answer`, the push notification's "It's me" too). Here,
 * beside the categories and away from the API's schemas, so the screens that show it need no zod.
 */
export const ANSWERABLE_ALERT_CATEGORIES: readonly AlertCategory[] = [
  'leakage_detection',
  'abnormal_water_consumption_no_ac',
  'abnormal_water_consumption_with_ac',
];
export const ALERT_ANSWERS = ['me', 'not_me'] as const;
export type AlertAnswerValue = (typeof ALERT_ANSWERS)[number];

/** The severities a person chooses channels for (docs/alerts.md "How each person is told"). */
export const NOTIFICATION_SEVERITIES = ['critical', 'other'] as const;
export type NotificationSeverity = (typeof NOTIFICATION_SEVERITIES)[number];

/**
 * Critical: what a person may have to act on within minutes (automatic closing, a burst or abnormal
 * consumption, a leak, a dysfunction of the valve), pushed with high urgency; these ignore quiet
 * hours and escalate. Everything else can wait. Here, away from the API's schemas, so the screens
 * that show alerts need no zod.
 */
const CRITICAL_TO_TELL: readonly AlertCategory[] = [
  'abnormal_water_consumption_with_ac',
  'abnormal_water_consumption_no_ac',
  'leakage_detection',
  'flowbox_dysfunction',
];

export function alertSeverity(category: AlertCategory): NotificationSeverity {
  return CRITICAL_TO_TELL.includes(category) ? 'critical' : 'other';
}

/** A user's setting for one category; the email flag defaults to true (spec §3). */
export type AlertUserSetting = { email: boolean };
export type AlertsSettings = Record<AlertCategory, AlertUserSetting>;

export function defaultAlertsSettings(): AlertsSettings {
  return Object.fromEntries(ALERT_CATEGORIES.map((c) => [c, { email: true }])) as AlertsSettings;
}
