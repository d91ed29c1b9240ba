import { DEFAULT_LANGUAGE, LANGUAGES, MESSAGES_EN, MESSAGES_FR } from '@flowbox/shared';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { en } from './en.ts';
import { featuresEn } from './features.ts';
import { featuresFr } from './features-fr.ts';
import { fr } from './fr.ts';
import { I18nLite } from './lite.ts';

// The browser build's i18next (lite.ts, vite.config.ts) answers what i18next itself answers, with
// index.ts's options, for every text of the catalogue, in both languages.
const resources = {
  en: { translation: { ...MESSAGES_EN, ...en, ...featuresEn } as Record<string, string> },
  fr: { translation: { ...MESSAGES_FR, ...fr, ...featuresFr } as Record<string, string> },
};
const COUNTS = [0, 1, 2, 5, 1.5, 1_000_000];
const PLURAL = /_(zero|one|two|few|many|other)$/;

const real = i18next.createInstance();
const lite = new I18nLite();

beforeAll(async () => {
  const options = { resources, lng: 'fr', fallbackLng: DEFAULT_LANGUAGE };
  await real.init({
    ...options,
    supportedLngs: [...LANGUAGES],
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  await lite.init(options);
});

const keys = [...new Set(Object.values(resources).flatMap((r) => Object.keys(r.translation)))];
const bases = [...new Set(keys.map((key) => key.replace(PLURAL, '')))];
const plurals = bases.filter((base) => keys.some((key) => key !== base && key.replace(PLURAL, '') === base));

/** Every placeholder of every language's text for a key (and its plural forms), given a value. */
const placeholders = new Map<string, Record<string, string>>();
for (const { translation } of Object.values(resources))
  for (const [key, text] of Object.entries(translation))
    for (const [, name] of text.matchAll(/\{\{-?(.+?)\}\}/g)) {
      const base = key.replace(PLURAL, '');
      for (const k of new Set([key, base])) {
        const values = placeholders.get(k) ?? {};
        values[name!.trim()] = `<${name!.trim()}>`;
        placeholders.set(k, values);
      }
    }
const values = (key: string) => placeholders.get(key) ?? {};

/** The keys (with their options) whose answers differ. */
function differences(cases: [string, Record<string, unknown>][]): string[] {
  const found: string[] = [];
  for (const [key, options] of cases) {
    const mine = lite.t(key, options);
    const theirs: unknown = real.t(key as never, options as never);
    if (mine !== theirs) found.push(`${key} ${JSON.stringify(options)}: ${mine} ≠ ${theirs}`);
    if (lite.exists(key) !== real.exists(key)) found.push(`${key} exists`);
  }
  return found;
}

describe('the browser build’s i18next', () => {
  for (const language of LANGUAGES) {
    it(`answers as i18next for every key in ${language}, with and without its values`, async () => {
      await real.changeLanguage(language);
      await lite.changeLanguage(language);
      expect(keys.length).toBeGreaterThan(500);
      const all = [...keys, ...bases];
      expect(differences(all.map((key) => [key, {}]))).toEqual([]);
      expect(differences(all.map((key) => [key, values(key)]))).toEqual([]);
    });

    it(`chooses the plural forms as i18next in ${language}`, async () => {
      await real.changeLanguage(language);
      await lite.changeLanguage(language);
      expect(plurals.length).toBeGreaterThan(20);
      expect(
        differences(
          plurals.flatMap((key) =>
            COUNTS.map((count): [string, Record<string, unknown>] => [key, { ...values(key), count }]),
          ),
        ),
      ).toEqual([]);
    });
  }

  it('answers an unknown key, a default value, an absent and an undefined value as i18next', async () => {
    await real.changeLanguage('fr');
    await lite.changeLanguage('fr');
    const cases: [string, Record<string, unknown>][] = [
      ['nothing.here', {}],
      ['nothing.here', { defaultValue: 'Plan {{name}}', name: 'B' }],
      ['nothing.here', { defaultValue: 'Plan {{name}}' }],
      ['nothing.here', { count: 2 }],
      ['common.save', { lng: 'en' }],
    ];
    const withValue = keys.find((key) => /\{\{\w+\}\}/.test(resources.en.translation[key]!))!;
    const name = /\{\{(\w+)\}\}/.exec(resources.en.translation[withValue]!)![1]!;
    cases.push([withValue, { [name]: undefined }], [withValue, { [name]: null }], [withValue, { [name]: 3 }]);
    expect(differences(cases)).toEqual([]);
  });

  it('chooses a zero form, and French’s "many", as i18next', async () => {
    const texts = {
      en: { translation: { n_zero: 'none', n_one: 'one {{count}}', n_other: '{{count}} things' } },
      fr: {
        translation: { n_one: '{{count}} chose', n_many: '{{count}} de choses', n_other: '{{count}} choses' },
      },
    };
    const options = { resources: texts, lng: 'fr', fallbackLng: 'en' };
    const theirs = i18next.createInstance();
    await theirs.init({
      ...options,
      keySeparator: false,
      nsSeparator: false,
      interpolation: { escapeValue: false },
    });
    const mine = new I18nLite();
    await mine.init(options);
    for (const language of ['en', 'fr'])
      for (const count of [0, 1, 2, 1_000_000])
        expect(mine.t('n', { count, lng: language }), `${language} ${count}`).toBe(
          theirs.t('n' as never, { count, lng: language } as never),
        );
  });

  it('falls back to English for a text French lacks, and tells when the language changes', async () => {
    const local = new I18nLite();
    await local.init({ resources: { en: { translation: { a: 'A' } } }, lng: 'fr', fallbackLng: 'en' });
    local.addResourceBundle('fr', 'translation', { b: 'B fr' });
    const changes: unknown[] = [];
    local.on('languageChanged', (language) => changes.push(language));
    expect([local.t('a'), local.t('b'), local.getFixedT('en')('b')]).toEqual(['A', 'B fr', 'b']);
    await local.changeLanguage('en');
    expect(changes).toEqual(['en']);
  });
});
