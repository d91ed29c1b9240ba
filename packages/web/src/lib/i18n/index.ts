import { DEFAULT_LANGUAGE, LANGUAGES, MESSAGES_EN, type Language } from '@flowbox/shared';
import i18next from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import { en } from './en.ts';

export { isTranslationKey, type TranslationKey } from './keys.ts';

const STORAGE_KEY = 'language';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The language chosen in the header wins; otherwise the browser's, when we speak it; otherwise English. */
function initialLanguage(): Language {
  const stored = window.localStorage.getItem(STORAGE_KEY);
  if (isLanguage(stored)) return stored;
  const browser = window.navigator.language.slice(0, 2);
  return isLanguage(browser) ? browser : DEFAULT_LANGUAGE;
}

function reflectOnDocument(language: string): void {
  document.documentElement.lang = language;
}

const firstLanguage = initialLanguage();

// Keys are flat ("errors.forbidden"), shared with the server catalogue, so '.' is no separator.
// English is the source and the fallback, in the entry; French is a chunk loaded when chosen.
void i18next.use(initReactI18next).init({
  resources: { en: { translation: { ...MESSAGES_EN, ...en } } },
  lng: firstLanguage,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});
reflectOnDocument(i18next.language);
i18next.on('languageChanged', reflectOnDocument);

export const i18n = i18next;

const loading = new Map<Language, Promise<void>>();

/** Fetches a language's texts once (English is always there); switch to it only after. */
function loadLanguage(language: Language): Promise<void> {
  if (language === DEFAULT_LANGUAGE) return Promise.resolve();
  let load = loading.get(language);
  if (!load) {
    load = import('./fr.ts').then(({ fr, MESSAGES_FR }) => {
      i18next.addResourceBundle('fr', 'translation', { ...MESSAGES_FR, ...fr });
    });
    loading.set(language, load);
  }
  return load;
}

/** Resolves when the first screen's language is ready: main.tsx renders after it, never in the wrong one. */
export const firstLanguageReady = loadLanguage(firstLanguage);

export function currentLanguage(): Language {
  return isLanguage(i18next.language) ? i18next.language : DEFAULT_LANGUAGE;
}

let featureTexts: Promise<void> | undefined;

/** Adds the signed-in screens' texts (features.ts), once; the shell's route awaits it. */
export function loadFeatureTexts(): Promise<void> {
  featureTexts ??= import('./features.ts').then(({ featuresEn, featuresFr }) => {
    i18next.addResourceBundle('en', 'translation', featuresEn);
    i18next.addResourceBundle('fr', 'translation', featuresFr);
  });
  return featureTexts;
}

/** Switches the UI and remembers the choice on this browser. */
export async function changeLanguage(language: Language): Promise<void> {
  window.localStorage.setItem(STORAGE_KEY, language);
  await loadLanguage(language);
  await i18next.changeLanguage(language);
}

/**
 * After signing in: a language chosen on this browser stays; otherwise the user's own (spec §3
 * user language) replaces the browser's guess.
 */
export async function adoptUserLanguage(language: Language): Promise<void> {
  if (isLanguage(window.localStorage.getItem(STORAGE_KEY))) return;
  await loadLanguage(language);
  await i18next.changeLanguage(language);
}

/** `t` plus the current language, typed as one of ours. */
export function useLanguage() {
  const { t, i18n: instance } = useTranslation();
  const language: Language = isLanguage(instance.language) ? instance.language : DEFAULT_LANGUAGE;
  return { t, language };
}
