import { CLOCK_SKEW_ALERT_S, type Flowbox } from '@flowbox/shared';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { Badge } from '../../../components/Badge.tsx';
import { clockState, durationParts } from '../format.ts';

/**
 * The device's clock against the server's (docs/automation.md "Device clocks"). Beyond the alert
 * bound it is a warning, said in words as well as in colour, with what it means for the user.
 */
export function DeviceClock({ flowbox }: { flowbox: Flowbox }) {
  const { t } = useLanguage();
  const duration = (seconds: number) =>
    durationParts(seconds)
      .map(([value, unit]) => t(`flowbox.duration.${unit}`, { value }))
      .join(' ');
  const skew = flowbox.clock_skew_s;
  const state = clockState(skew);
  if (skew === null || state === 'unknown')
    return <span className="text-slate-500 dark:text-slate-400">{t('flowbox.unknown')}</span>;
  const text =
    state === 'on_time'
      ? t('flowbox.clock.on_time')
      : t(`flowbox.clock.${state}`, { duration: duration(skew) });
  if (!flowbox.clock_skew_alarming) return <span data-testid="flowbox-clock">{text}</span>;
  return (
    <span data-testid="flowbox-clock" data-alarming="true">
      <Badge tone="warn">{text}</Badge>
      <span className="mt-1 block text-xs text-amber-900 dark:text-amber-200">
        {t('flowbox.clock.off_bound', { bound: duration(CLOCK_SKEW_ALERT_S) })}
      </span>
    </span>
  );
}
