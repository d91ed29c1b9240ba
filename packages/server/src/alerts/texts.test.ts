import { ALERT_CATEGORIES, LANGUAGES, type Language } from '@flowbox/shared';
import { describe, expect, it } from 'vitest';
import { alertEmail } from './alert-email.ts';
import { CATEGORY_NAMES, defaultCategorySetting } from './alert-settings.ts';
import type { AlertRow, AlertZone } from './alerts.repo.ts';

/*
 * Every alert text the server writes exists in English and in French (spec §1): the name and the
 * default email subject of each of the eight categories, and each email (first and reminder).
 */

const zone: AlertZone = {
  customerId: '00000000-0000-4000-8000-000000000001',
  siteId: '00000000-0000-4000-8000-000000000002',
  buildingId: '00000000-0000-4000-8000-000000000003',
  zoneId: '00000000-0000-4000-8000-000000000004',
  zoneName: 'Kitchen',
  buildingName: 'Main',
  timezone: 'Europe/Paris',
  volumeUnit: 'm3',
  premium: true,
};

const rowOf = (category: AlertRow['category']) =>
  ({
    category,
    flowboxSerial: 'FB-1',
    cause: 'x',
    details: { reading: 2 },
    openedAt: new Date('2026-05-01T08:00:00Z'),
    count: 3,
  }) as unknown as AlertRow;

/** Words that would betray an English sentence left in a French email. */
const ENGLISH =
  /\b(Hello|Alert:|Opened at|Occurrences:|Details:|See and handle|Reminder|You receive|building)\b/;
const FRENCH = /\b(Bonjour|Alerte :|Ouverte le|Détails :|Rappel|Vous recevez|bâtiment)\b/;

describe.each(ALERT_CATEGORIES)('the texts of the %s category', (category) => {
  it('has a name and a default email subject in each language', () => {
    for (const language of LANGUAGES) {
      expect(CATEGORY_NAMES[language][category].trim()).not.toBe('');
      expect(defaultCategorySetting(category).subject[language]).toContain(
        CATEGORY_NAMES[language][category],
      );
    }
    expect(defaultCategorySetting(category).subject.fr).not.toBe(defaultCategorySetting(category).subject.en);
  });

  it.each(['first', 'reminder', 'unopened', 'escalated'] as const)(
    'has its email (%s) in English and in French',
    (round) => {
      const email = (language: Language) =>
        alertEmail(language, {
          firstname: 'Ana',
          subject: defaultCategorySetting(category).subject[language],
          alert: rowOf(category),
          zone,
          round,
          link: 'https://flowbox.test/alerts',
        });
      const [en, fr] = [email('en'), email('fr')];
      const prefix = {
        first: ['', ''],
        reminder: ['Reminder: ', 'Rappel : '],
        unopened: ['Not opened: ', 'Non ouverte : '],
        escalated: ['Nobody answered: ', 'Sans réponse : '],
      }[round];
      expect(en.subject.startsWith(`${prefix[0]}Flowbox alert`)).toBe(true);
      expect(fr.subject.startsWith(`${prefix[1]}Alerte Flowbox`)).toBe(true);
      expect(en.text).toContain(`Alert: ${CATEGORY_NAMES.en[category]}`);
      expect(fr.text).toContain(`Alerte : ${CATEGORY_NAMES.fr[category]}`);
      expect(fr.text).not.toMatch(ENGLISH);
      expect(en.text).not.toMatch(FRENCH);
      for (const text of [en.text, fr.text]) {
        expect(text).toContain('Kitchen');
        expect(text).toContain('FB-1');
        expect(text).toContain('https://flowbox.test/alerts');
      }
    },
  );
});
