import { useCallback, useMemo, useSyncExternalStore } from 'react';
import i18next from './lite.ts';

/**
 * The part of react-i18next the web app uses, with lite.ts (see there): `useTranslation()` answers
 * `t` in the current language and the instance, and renders again when the language changes.
 */
export const initReactI18next = { type: '3rdParty', init: () => undefined } as const;

export function useTranslation() {
  const subscribe = useCallback((changed: () => void) => {
    i18next.on('languageChanged', changed);
    return () => void i18next.off('languageChanged', changed);
  }, []);
  const language = useSyncExternalStore(subscribe, () => i18next.language);
  const t = useMemo(() => i18next.getFixedT(language), [language]);
  return { t, i18n: i18next, ready: true };
}
