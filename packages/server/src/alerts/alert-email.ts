import {
  alertDetailsText,
  displayLocalDateTime,
  UNOPENED_ESCALATION_MINUTES,
  type Language,
} from '@flowbox/shared';
import { CATEGORY_NAMES } from './alert-settings.ts';
import type { AlertRow, AlertZone } from './alerts.repo.ts';

type AlertEmailInput = {
  firstname: string;
  /** The category's subject in the recipient's language (spec §3 alert settings). */
  subject: string;
  alert: AlertRow;
  zone: AlertZone;
  round: AlertRound;
  link: string;
};

/**
 * Which telling of an alert a message is (docs/alerts.md "Who is told", "Escalation"): when it
 * opened; a critical alert's reminder, nobody having silenced or resolved it; the channel the reader
 * keeps for an alert they have not opened; the zone's managers told because nobody opened it.
 */
export type AlertRound = 'first' | 'reminder' | 'unopened' | 'escalated';

/** The line that opens a message of each round but the first, and the subject's prefix. */
export const ROUND_TEXTS: Record<
  Language,
  Record<Exclude<AlertRound, 'first'>, { prefix: string; line: string }>
> = {
  en: {
    reminder: { prefix: 'Reminder: ', line: 'This critical alert has been neither silenced nor resolved.' },
    unopened: {
      prefix: 'Not opened: ',
      line: `You have not opened this critical alert ${UNOPENED_ESCALATION_MINUTES} minutes after it was raised.`,
    },
    escalated: {
      prefix: 'Nobody answered: ',
      line: `Nobody has opened this critical alert ${2 * UNOPENED_ESCALATION_MINUTES} minutes after it was raised: you are told as a manager of its zone.`,
    },
  },
  fr: {
    reminder: { prefix: 'Rappel : ', line: "Cette alerte critique n'a été ni mise en sourdine ni résolue." },
    unopened: {
      prefix: 'Non ouverte : ',
      line: `Vous n'avez pas ouvert cette alerte critique ${UNOPENED_ESCALATION_MINUTES} minutes après son déclenchement.`,
    },
    escalated: {
      prefix: 'Sans réponse : ',
      line: `Personne n'a ouvert cette alerte critique ${2 * UNOPENED_ESCALATION_MINUTES} minutes après son déclenchement : vous en êtes averti comme responsable de sa zone.`,
    },
  },
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
  const round = input.round === 'first' ? undefined : ROUND_TEXTS[language][input.round];
  const subject = `${round?.prefix ?? ''}${input.subject}`;
  const opening = round ? `${round.line}\n\n` : '';
  if (language === 'fr') {
    return {
      subject,
      text:
        `Bonjour ${input.firstname},\n\n` +
        opening +
        `Alerte : ${category}\n` +
        (details ? `${details}\n\n` : '') +
        `Zone : ${zone.zoneName} (bâtiment ${zone.buildingName})\nFlowbox : ${device}\n` +
        `Ouverte le : ${opened} (heure du bâtiment, ${zone.timezone})\nOccurrences : ${alert.count}\n` +
        `\nVoir et traiter l'alerte : ${input.link}\n\n` +
        'Vous recevez ce message car les notifications d’alertes sont activées dans vos paramètres.\n',
    };
  }
  return {
    subject,
    text:
      `Hello ${input.firstname},\n\n` +
      opening +
      `Alert: ${category}\n` +
      (details ? `${details}\n\n` : '') +
      `Zone: ${zone.zoneName} (building ${zone.buildingName})\nFlowbox: ${device}\n` +
      `Opened at: ${opened} (building time, ${zone.timezone})\nOccurrences: ${alert.count}\n` +
      `\nSee and handle the alert: ${input.link}\n\n` +
      'You receive this message because alert notifications are on in your settings.\n',
  };
}
