import { LANGUAGES, type Language } from '@flowbox/shared';
import { useLanguage } from '../../lib/i18n/index.ts';

type LanguageSwitchProps = { onChange: (language: Language) => void };

/** EN | FR toggle; the page decides where the choice is also saved (the profile, when logged in). */
export function LanguageSwitch({ onChange }: LanguageSwitchProps) {
  const { t, language } = useLanguage();
  return (
    <div
      role="group"
      aria-label={t('language.switch')}
      className="inline-flex rounded-lg border border-slate-300 p-0.5 dark:border-slate-600"
    >
      {LANGUAGES.map((code) => (
        <button
          key={code}
          type="button"
          lang={code}
          aria-pressed={language === code}
          // The visible code stays in the name (WCAG 2.5.3, label in name): "English, EN" (axe drops parentheses).
          aria-label={`${t(`language.${code}`)}, ${code.toUpperCase()}`}
          // The pressed one too: it may be only the browser's guess, and clicking it makes it a choice.
          onClick={() => onChange(code)}
          className={`rounded-md px-2 py-1 text-xs font-semibold uppercase focus-visible:outline-2 focus-visible:outline-sky-600 ${
            language === code
              ? 'bg-sky-700 text-white dark:bg-sky-500 dark:text-slate-950'
              : 'text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'
          }`}
        >
          {code}
        </button>
      ))}
    </div>
  );
}
