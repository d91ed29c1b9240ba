import type { Language } from '@flowbox/shared';
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

function detailsText(details: AlertRow['details']): string {
  return Object.entries(details)
    .map(([key, value]) => `- ${key}: ${String(value)}`)
    .join('\n');
}

/** An alert email in the recipient's language. */
export function alertEmail(language: Language, input: AlertEmailInput): { subject: string; text: string } {
  const { alert, zone } = input;
  const category = CATEGORY_NAMES[language][alert.category];
  const device = alert.flowboxSerial ?? '-';
  const details = detailsText(alert.details);
  if (language === 'fr') {
    return {
      subject: input.reminder ? `Rappel : ${input.subject}` : input.subject,
      text:
        `Bonjour ${input.firstname},\n\n` +
        (input.reminder ? "Cette alerte critique n'a été ni mise en sourdine ni résolue.\n\n" : '') +
        `Alerte : ${category}\nZone : ${zone.zoneName} (bâtiment ${zone.buildingName})\nFlowbox : ${device}\n` +
        `Ouverte le : ${alert.openedAt.toISOString()}\nOccurrences : ${alert.count}\n` +
        (details ? `Détails :\n${details}\n` : '') +
        `\nVoir et traiter l'alerte : ${input.link}\n\n` +
        'Vous recevez ce message car les notifications d’alertes sont activées dans vos paramètres.\n',
    };
  }
  return {
    subject: input.reminder ? `Reminder: ${input.subject}` : input.subject,
    text:
      `Hello ${input.firstname},\n\n` +
      (input.reminder ? 'This critical alert has been neither silenced nor resolved.\n\n' : '') +
      `Alert: ${category}\nZone: ${zone.zoneName} (building ${zone.buildingName})\nFlowbox: ${device}\n` +
      `Opened at: ${alert.openedAt.toISOString()}\nOccurrences: ${alert.count}\n` +
      (details ? `Details:\n${details}\n` : '') +
      `\nSee and handle the alert: ${input.link}\n\n` +
      'You receive this message because alert notifications are on in your settings.\n',
  };
}
