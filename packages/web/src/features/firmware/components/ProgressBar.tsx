import { useLanguage } from '../../../lib/i18n/index.ts';
import { formatPercent } from '../format.ts';

/**
 * A progress bar screen readers read (role progressbar, its value in words). It is not a live
 * region itself: the caller's aria-live summary announces changes, at a pace worth hearing.
 */
export function ProgressBar({ pct, label }: { pct: number; label: string }) {
  const { language } = useLanguage();
  const value = Math.max(0, Math.min(100, pct));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(value)}
      aria-valuetext={formatPercent(value, language)}
      className="h-2.5 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
    >
      <div
        className="h-full rounded-full bg-sky-600 transition-[width] dark:bg-sky-400"
        style={{ width: `${value}%` }}
      />
    </div>
  );
}
