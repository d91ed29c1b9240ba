import type { Language } from '@flowbox/shared';

/** The email to a customer's managers when the server disabled one of its webhooks (docs/webhooks.md). */
export function webhookDisabledEmail(
  language: Language,
  input: { firstname: string; url: string; failures: number; link: string },
): { subject: string; text: string } {
  if (language === 'fr') {
    return {
      subject: 'Un webhook Flowbox Manager a été désactivé',
      text: `Bonjour ${input.firstname},\n\nLe webhook ${input.url} n'a pas pu recevoir les événements de Flowbox Manager depuis trop longtemps (${input.failures} envois échoués d'affilée, ou 24 heures d'échecs) : il a été désactivé, et les événements en attente abandonnés.\n\nUne fois le destinataire réparé, réactivez-le ici (un événement de test permet de vérifier) :\n\n${input.link}\n`,
    };
  }
  return {
    subject: 'A Flowbox Manager webhook has been disabled',
    text: `Hello ${input.firstname},\n\nThe webhook ${input.url} has failed to take Flowbox Manager's events for too long (${input.failures} deliveries failed in a row, or 24 hours of failures): it has been disabled, and the events waiting for it given up.\n\nOnce the receiver is fixed, enable it again here (a test event lets you check it):\n\n${input.link}\n`,
  };
}
