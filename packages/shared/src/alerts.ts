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

/** A user's setting for one category; the email flag defaults to true (spec §3). */
export type AlertUserSetting = { email: boolean };
export type AlertsSettings = Record<AlertCategory, AlertUserSetting>;

export function defaultAlertsSettings(): AlertsSettings {
  return Object.fromEntries(ALERT_CATEGORIES.map((c) => [c, { email: true }])) as AlertsSettings;
}
