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
const featureLoading = new Map<Language, Promise<void>>();
/** Set once a signed-in screen asked for its texts: a language chosen after loads them too. */
let featuresWanted = false;

/** Fetches a language's sign-in texts once (English is always there). */
function loadCoreTexts(language: Language): Promise<void> {
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

/** Fetches a language's signed-in screens' texts once: English always (the fallback), others when read. */
function loadFeatureLanguage(language: Language): Promise<void> {
  let load = featureLoading.get(language);
  if (!load) {
    load = (
      language === DEFAULT_LANGUAGE
        ? import('./features.ts').then(({ featuresEn }) => featuresEn)
        : import('./features-fr.ts').then(({ featuresFr }) => featuresFr)
    ).then((texts) => {
      i18next.addResourceBundle(language, 'translation', texts);
    });
    featureLoading.set(language, load);
  }
  return load;
}

/** Fetches what a language needs on the screens shown so far; switch to it only after. */
async function loadLanguage(language: Language): Promise<void> {
  await Promise.all([loadCoreTexts(language), featuresWanted ? loadFeatureLanguage(language) : undefined]);
}

/** Resolves when the first screen's language is ready: main.tsx renders after it, never in the wrong one. */
export const firstLanguageReady = loadLanguage(firstLanguage);

export function currentLanguage(): Language {
  return isLanguage(i18next.language) ? i18next.language : DEFAULT_LANGUAGE;
}

/**
 * Adds the signed-in screens' texts, in English and in the language on screen; the shell's route
 * awaits it. A language chosen later brings its own (loadLanguage).
 */
export async function loadFeatureTexts(): Promise<void> {
  featuresWanted = true;
  const language = currentLanguage();
  await Promise.all([loadFeatureLanguage(DEFAULT_LANGUAGE), loadFeatureLanguage(language)]);
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
