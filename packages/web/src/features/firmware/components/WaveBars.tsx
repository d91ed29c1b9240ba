import type { Rollout } from '@flowbox/shared';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { STATE_GROUPS } from '../format.ts';
import { waveBars } from '../waves.ts';
import { GROUP_COLOURS } from './group-colours.ts';

/** What each colour of the bars means. */
export function GroupLegend() {
  const { t } = useLanguage();
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600 dark:text-slate-400">
      {STATE_GROUPS.map((group) => (
        <li key={group} className="flex items-center gap-1.5">
          <span
            aria-hidden="true"
            className={`inline-block h-2.5 w-2.5 rounded-sm ${GROUP_COLOURS[group].className}`}
          />
          {t(`firmware.group.${group}`)}
        </li>
      ))}
    </ul>
  );
}

/**
 * A bar per wave (docs/firmware.md "Waves"): its devices by state group, in colour for the eye and
 * in words for screen readers, and whether the wave waits, runs or is over.
 */
export function WaveBars({ rollout }: { rollout: Rollout }) {
  const { t } = useLanguage();
  const bars = waveBars(rollout);
  return (
    <div className="space-y-4">
      <ol className="space-y-3">
        {bars.map((bar) => (
          <li key={bar.wave} data-testid="wave-bar">
            <div className="mb-1 flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
              <span className="font-medium">
                {t('firmware.wave_title', { wave: bar.wave, count: bar.size })}
                {bar.wave === 1 && (
                  <span className="text-slate-500 dark:text-slate-400"> · {t('firmware.canary')}</span>
                )}
              </span>
              <span className="text-xs text-slate-600 dark:text-slate-400">
                {t(`firmware.wave_status.${bar.status}`)}
              </span>
            </div>
            <div
              aria-hidden="true"
              className="flex h-3 w-full overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800"
            >
              {bar.segments.map((segment) => (
                <div
                  key={segment.group}
                  className={GROUP_COLOURS[segment.group].className}
                  style={{ width: `${segment.pct}%` }}
                />
              ))}
            </div>
            <p className="sr-only">
              {STATE_GROUPS.filter((group) => bar.counts[group] > 0)
                .map((group) => t(`firmware.group_count.${group}`, { count: bar.counts[group] }))
                .join(', ')}
            </p>
          </li>
        ))}
      </ol>
      <GroupLegend />
    </div>
  );
}
