import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../paths.ts';

export const SUPPORT_EMAIL = 'support@flowbox.local';

const LINK = 'hover:text-sky-700 hover:underline dark:hover:text-sky-400';

export function Footer() {
  const { t } = useTranslation();
  return (
    <footer className="border-t border-slate-200 px-4 py-6 text-sm text-slate-600 sm:px-6 dark:border-slate-800 dark:text-slate-400">
      <nav aria-label={t('footer.label')}>
        <ul className="flex flex-wrap justify-center gap-x-6 gap-y-2">
          <li>
            <Link to={paths.status.getHref()} className={LINK}>
              {t('footer.status')}
            </Link>
          </li>
          <li>
            <Link to={paths.help.getHref()} className={LINK}>
              {t('footer.documentation')}
            </Link>
          </li>
          <li>
            <a href={`mailto:${SUPPORT_EMAIL}`} className={LINK}>
              {t('footer.support')}
            </a>
          </li>
          <li>
            <Link to={paths.terms.getHref()} className={LINK}>
              {t('footer.terms')}
            </Link>
          </li>
          <li>
            <Link to={paths.privacy.getHref()} className={LINK}>
              {t('footer.privacy')}
            </Link>
          </li>
        </ul>
      </nav>
      <p className="mt-3 text-center text-xs">© Flowbox Manager</p>
    </footer>
  );
}
