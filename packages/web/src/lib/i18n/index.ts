import { DEFAULT_LANGUAGE, LANGUAGES, MESSAGES_EN, type Language } from '@flowbox/shared';
import i18next from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import { en } from './en.ts';

export { isTranslationKey, type TranslationKey } from './keys.ts';

/**
 * Issue 30: one language on screen, the signed-in user's (spec §3 user language). This browser
 * remembers the last one shown, so the next visit's first paint is already in it.
 */
const STORAGE_KEY = 'language';
/** A visitor's choice on the sign-in pages, saved to its account when it signs in. */
const CHOSEN_KEY = 'language_chosen';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The language this browser last showed; otherwise the browser's, when we speak it; otherwise English. */
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
/** The language the screens are switching to, or show: a chunk loaded meanwhile loads its texts too. */
let wantedLanguage: Language = firstLanguage;

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
 * Adds the signed-in screens' texts, in English and in the language on screen (or on its way there);
 * the shell's route awaits it. A language chosen later brings its own (changeLanguage).
 */
export async function loadFeatureTexts(): Promise<void> {
  featuresWanted = true;
  await Promise.all(
    [DEFAULT_LANGUAGE, currentLanguage(), wantedLanguage].map((language) => loadFeatureLanguage(language)),
  );
}

/**
 * Switches the screens once the language's texts are there, and remembers it on this browser for the
 * next visit's first paint.
 */
export async function changeLanguage(language: Language): Promise<void> {
  wantedLanguage = language;
  window.localStorage.setItem(STORAGE_KEY, language);
  await loadLanguage(language);
  // The shell may have asked for its texts while the sign-in texts were on their way.
  if (featuresWanted) await loadFeatureLanguage(language);
  // A later switch won the race: this one must not undo it.
  if (wantedLanguage === language) await i18next.changeLanguage(language);
}

/** A visitor's choice on the sign-in pages: shown at once, and made its account's when it signs in. */
export async function chooseLanguage(language: Language): Promise<void> {
  window.localStorage.setItem(CHOSEN_KEY, language);
  await changeLanguage(language);
}

/** The language a visitor chose before signing in, not yet saved to its account. */
export function chosenLanguage(): Language | undefined {
  const chosen = window.localStorage.getItem(CHOSEN_KEY);
  return isLanguage(chosen) ? chosen : undefined;
}

/** Once the account holds the visitor's choice, the account's language is the one to follow. */
export function forgetChosenLanguage(): void {
  window.localStorage.removeItem(CHOSEN_KEY);
}

/**
 * The signed-in user's language on screen, before any signed-in screen draws: its account's, or the
 * one it chose on the sign-in page, which the shell then saves to the account.
 */
export async function showUserLanguage(language: Language): Promise<void> {
  await changeLanguage(chosenLanguage() ?? language);
}

/** `t` plus the current language, typed as one of ours. */
export function useLanguage() {
  const { t, i18n: instance } = useTranslation();
  const language: Language = isLanguage(instance.language) ? instance.language : DEFAULT_LANGUAGE;
  return { t, language };
}
