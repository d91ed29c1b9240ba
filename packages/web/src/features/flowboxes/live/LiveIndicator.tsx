import { useLanguage } from '../../../lib/i18n/index.ts';
import { useLiveStatus } from '../../../lib/live.ts';

const DOT = {
  connected: 'bg-emerald-500',
  connecting: 'bg-amber-400 motion-safe:animate-pulse',
  reconnecting: 'bg-amber-400 motion-safe:animate-pulse',
};

/** Whether device changes arrive by themselves; the words carry it, the dot helps. */
export function LiveIndicator() {
  const { t } = useLanguage();
  const status = useLiveStatus();
  return (
    <span
      role="status"
      title={t(`live.${status}_hint`)}
      className="inline-flex items-center gap-1.5 rounded-full px-2 py-1 text-xs font-medium text-slate-600 dark:text-slate-300"
      data-testid="live-status"
      data-status={status}
    >
      <span aria-hidden="true" className={`h-2 w-2 rounded-full ${DOT[status]}`} />
      <span className="sr-only sm:not-sr-only">{t(`live.${status}`)}</span>
    </span>
  );
}
