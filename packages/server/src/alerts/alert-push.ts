import {
  ANSWERABLE_ALERT_CATEGORIES,
  CRITICAL_ALERT_CATEGORIES,
  displayLocalDateTime,
  type Language,
  type NotificationSeverity,
  type PushAlertAction,
  type PushAlertPayload,
  type PushUrgency,
} from '@flowbox/shared';
import { CATEGORY_NAMES } from './alert-settings.ts';
import { alertSentence, ROUND_TEXTS, type AlertRound } from './alert-email.ts';
import type { AlertRow, AlertZone } from './alerts.repo.ts';

/**
 * Issue 33: a critical alert's push message goes at once, and is worth nothing after five minutes;
 * another one waits for a phone saving its battery, and is still worth telling within the hour.
 */
export const ALERT_PUSH = {
  critical: { urgency: 'high', ttlS: 300 },
  other: { urgency: 'normal', ttlS: 3600 },
} as const satisfies Record<NotificationSeverity, { urgency: PushUrgency; ttlS: number }>;

const ACTION_TITLES: Record<Language, Record<PushAlertAction, string>> = {
  en: { close_water: 'Close the water', its_me: "It's me", snooze_1h: 'Snooze 1 h' },
  fr: { close_water: "Fermer l'eau", its_me: "C'est moi", snooze_1h: 'Reporter 1 h' },
};

/** A push service takes 4 KiB once encrypted: the texts are kept well within it. */
const TITLE_MAX = 120;
const BODY_MAX = 800;

/**
 * An alert's push message for one reader (issue 33): what happened in their language, units and the
 * building's time zone, as the email says it (`alertSentence`), and what they may do from the
 * notification. "Close the water" is not offered when automatic closing has closed it already,
 * "It's me" only on the alerts that ask "Was this you?" (a leak, an abnormal use).
 */
export function alertPush(
  language: Language,
  input: { alert: AlertRow; zone: AlertZone; link: string; round?: AlertRound },
): PushAlertPayload {
  const { alert, zone } = input;
  const sentence = alertSentence(language, alert, zone);
  const opened = displayLocalDateTime(alert.openedAt, zone.timezone, language);
  const where =
    language === 'fr'
      ? `${zone.zoneName} (bâtiment ${zone.buildingName}), ${opened}`
      : `${zone.zoneName} (building ${zone.buildingName}), ${opened}`;
  const actions = (['close_water', 'its_me', 'snooze_1h'] as const)
    .filter((action) => action !== 'close_water' || alert.category !== 'abnormal_water_consumption_with_ac')
    // "It's me" answers "Was this you?", asked of a use of water, not of a device's fault.
    .filter((action) => action !== 'its_me' || ANSWERABLE_ALERT_CATEGORIES.includes(alert.category))
    .map((action) => ({ action, title: ACTION_TITLES[language][action] }));
  return {
    type: 'alert',
    alert_id: alert.id,
    category: alert.category,
    critical: CRITICAL_ALERT_CATEGORIES.includes(alert.category),
    language,
    zone: { id: zone.zoneId, name: zone.zoneName, building: zone.buildingName },
    title: cut(`${prefixOf(language, input.round)}${CATEGORY_NAMES[language][alert.category]}`, TITLE_MAX),
    body: cut(sentence ? `${sentence}\n${where}` : where, BODY_MAX),
    actions,
    url: input.link,
    opened_at: alert.openedAt.toISOString(),
  };
}

function prefixOf(language: Language, round: AlertRound = 'first'): string {
  return round === 'first' ? '' : ROUND_TEXTS[language][round].prefix;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
