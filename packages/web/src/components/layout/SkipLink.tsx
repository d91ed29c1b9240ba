import { useTranslation } from 'react-i18next';

export const MAIN_ID = 'main-content';

export function SkipLink() {
  const { t } = useTranslation();
  return (
    <a
      href={`#${MAIN_ID}`}
      className="sr-only z-50 rounded-md bg-white px-4 py-2 text-sky-800 shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
    >
      {t('nav.skip')}
    </a>
  );
}
