import { alertDetailsText, displayLocalDateTime, type Language } from '@flowbox/shared';
import { CATEGORY_NAMES } from './alert-settings.ts';
import type { AlertRow, AlertZone } from './alerts.repo.ts';

type AlertEmailInput = {
  firstname: string;
  /** The category's subject in the recipient's language (spec §3 alert settings). */
  subject: string;
  alert: AlertRow;
  zone: AlertZone;
  /** A critical alert emailed again because nobody silenced or resolved it. */
  reminder: boolean;
  link: string;
};

/**
 * What happened, as the alerts screen says it (alertDetailsText): in the reader's language, the
 * building's volume unit and the building's clock. Emails and push messages tell it the same way.
 */
export function alertSentence(
  language: Language,
  alert: Pick<AlertRow, 'category' | 'cause' | 'details' | 'openedAt'>,
  zone: Pick<AlertZone, 'volumeUnit' | 'timezone'>,
): string {
  return alertDetailsText(
    {
      category: alert.category,
      cause: alert.cause,
      details: alert.details,
      opened_at: alert.openedAt.toISOString(),
    },
    language,
    { volumeUnit: zone.volumeUnit, timezone: zone.timezone },
  );
}

/**
 * An alert email in the recipient's language, its facts told as on the alerts screen: the same
 * sentence (alertDetailsText), the building's volume unit, and times on the building's clock.
 */
export function alertEmail(language: Language, input: AlertEmailInput): { subject: string; text: string } {
  const { alert, zone } = input;
  const category = CATEGORY_NAMES[language][alert.category];
  const device = alert.flowboxSerial ?? '-';
  const details = alertSentence(language, alert, zone);
  const opened = displayLocalDateTime(alert.openedAt, zone.timezone, language);
  if (language === 'fr') {
    return {
      subject: input.reminder ? `Rappel : ${input.subject}` : input.subject,
      text:
        `Bonjour ${input.firstname},\n\n` +
        (input.reminder ? "Cette alerte critique n'a été ni mise en sourdine ni résolue.\n\n" : '') +
        `Alerte : ${category}\n` +
        (details ? `${details}\n\n` : '') +
        `Zone : ${zone.zoneName} (bâtiment ${zone.buildingName})\nFlowbox : ${device}\n` +
        `Ouverte le : ${opened} (heure du bâtiment, ${zone.timezone})\nOccurrences : ${alert.count}\n` +
        `\nVoir et traiter l'alerte : ${input.link}\n\n` +
        'Vous recevez ce message car les notifications d’alertes sont activées dans vos paramètres.\n',
    };
  }
  return {
    subject: input.reminder ? `Reminder: ${input.subject}` : input.subject,
    text:
      `Hello ${input.firstname},\n\n` +
      (input.reminder ? 'This critical alert has been neither silenced nor resolved.\n\n' : '') +
      `Alert: ${category}\n` +
      (details ? `${details}\n\n` : '') +
      `Zone: ${zone.zoneName} (building ${zone.buildingName})\nFlowbox: ${device}\n` +
      `Opened at: ${opened} (building time, ${zone.timezone})\nOccurrences: ${alert.count}\n` +
      `\nSee and handle the alert: ${input.link}\n\n` +
      'You receive this message because alert notifications are on in your settings.\n',
  };
}
