import { Link } from 'react-router';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { useAlertCount } from '../api/get-alert-count.ts';

/** The header's live count of open alerts, a link to the alerts screen (an end user's: its zones'). */
export function AlertCountBadge() {
  const { t } = useLanguage();
  const count = useAlertCount();
  const open = count.data?.open ?? 0;
  const label = open > 0 ? t('alerts.header_count', { count: open }) : t('alerts.header_none');
  return (
    <Link
      to={paths.alerts.getHref()}
      aria-label={label}
      title={label}
      data-testid="alert-count"
      className="relative rounded-lg p-2 text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-sky-600 dark:text-slate-200 dark:hover:bg-slate-800"
    >
      <svg
        viewBox="0 0 24 24"
        className="h-6 w-6"
        aria-hidden="true"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      >
        <path d="M6 8a6 6 0 1112 0c0 7 3 9 3 9H3s3-2 3-9M10.3 21a1.94 1.94 0 003.4 0" />
      </svg>
      {open > 0 && (
        <span
          aria-hidden="true"
          className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-red-700 px-1 text-center text-xs leading-5 font-semibold text-white"
        >
          {open > 99 ? '99+' : open}
        </span>
      )}
    </Link>
  );
}
