import { useMemo } from 'react';
import type { Rollout } from '@flowbox/shared';
import { Alert } from '../../../components/Alert.tsx';
import { Card, DescriptionList } from '../../../components/Card.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useLiveStatus } from '../../../lib/live.ts';
import { useRequiredParam } from '../../../lib/params.ts';
import { paths } from '../../../paths.ts';
import { isRolloutOver, useRollout } from '../api/get-rollout.ts';
import { useRolloutTimeline } from '../api/get-rollout-timeline.ts';
import { formatPercent, groupCounts, STATE_GROUPS, targetLabel } from '../format.ts';
import { rolloutRefetchMs } from '../rollout-live.ts';
import { samplesFromTimeline } from '../timeline.ts';
import { rolloutDonePct } from '../waves.ts';
import { LazyStatesChart } from './LazyStatesChart.tsx';
import { ProgressBar } from './ProgressBar.tsx';
import { RolloutControls } from './RolloutControls.tsx';
import { RolloutDevicesCard } from './RolloutDevicesCard.tsx';
import { RolloutStateBadge } from './RolloutStateBadge.tsx';
import { useRolloutLive } from './useRolloutLive.ts';
import { WaveBars } from './WaveBars.tsx';
import { dateTimeFormat } from '../../../lib/intl.ts';

/** Why the rollout stopped by itself, in plain words, and what to do about it. */
function HaltNotice({ rollout }: { rollout: Rollout }) {
  const { t, language } = useLanguage();
  if (rollout.state !== 'halted' || !rollout.halt_reason) return null;
  return (
    <Alert title={t('firmware.halted_title')}>
      {t(`firmware.halt_reason.${rollout.halt_reason}`, {
        wave: rollout.current_wave,
        threshold: formatPercent(rollout.failure_threshold_pct, language),
      })}
    </Alert>
  );
}

/** Counts per state group in words (a polite live region) and the rollout's overall bar. */
function ProgressSummary({ rollout }: { rollout: Rollout }) {
  const { t, language } = useLanguage();
  const counts = groupCounts(rollout.counts);
  const done = rolloutDonePct(rollout);
  const states = Object.entries(rollout.counts).filter(([, count]) => count > 0);
  return (
    <Card title={t('firmware.progress')}>
      <div className="space-y-4">
        <ProgressBar pct={done} label={t('firmware.progress_label', { version: rollout.version })} />
        <p aria-live="polite" aria-atomic="true" className="text-sm" data-testid="rollout-summary">
          {t('firmware.progress_summary', {
            pct: formatPercent(done, language),
            success: counts.success,
            failed: counts.failed,
            total: rollout.total,
          })}
        </p>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5">
          {STATE_GROUPS.map((group) => (
            <div key={group} className="rounded-lg bg-slate-50 px-3 py-2 dark:bg-slate-800/50">
              <dt className="text-xs text-slate-600 dark:text-slate-400">{t(`firmware.group.${group}`)}</dt>
              <dd className="text-xl font-semibold tabular-nums" data-testid={`count-${group}`}>
                {counts[group]}
              </dd>
            </div>
          ))}
        </dl>
        {states.length > 0 && (
          <p className="text-xs text-slate-600 dark:text-slate-400">
            {states
              .map(([state, count]) =>
                t('firmware.state_count', {
                  state: t(`firmware.state.${state as keyof typeof rollout.counts}`),
                  count,
                }),
              )
              .join(' · ')}
          </p>
        )}
      </div>
    </Card>
  );
}

/** The states over the rollout's whole life (from the server), drawn once there are two points. */
function StatesOverTime({ rollout }: { rollout: Rollout }) {
  const { t, language } = useLanguage();
  const live = useLiveStatus();
  const timeline = useRolloutTimeline(rollout.id, rolloutRefetchMs(isRolloutOver(rollout), live));
  const samples = useMemo(() => (timeline.data ? samplesFromTimeline(timeline.data) : []), [timeline.data]);
  const groupLabels = Object.fromEntries(STATE_GROUPS.map((g) => [g, t(`firmware.group.${g}`)])) as Record<
    (typeof STATE_GROUPS)[number],
    string
  >;
  // A rollout of minutes shows seconds; one of days shows the date too.
  const long = samples.length > 1 && samples.at(-1)!.at - samples[0]!.at > 86_400_000;
  const time = dateTimeFormat(
    language,
    long
      ? { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }
      : { hour: '2-digit', minute: '2-digit', second: '2-digit' },
  );
  return (
    <Card title={t('firmware.chart_title')}>
      <p className="mb-2 text-xs text-slate-600 dark:text-slate-400">{t('firmware.chart_hint')}</p>
      {samples.length < 2 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{t('firmware.chart_waiting')}</p>
      ) : (
        <LazyStatesChart
          samples={samples}
          groupLabels={groupLabels}
          formatTime={(at) => time.format(at)}
          height={180}
        />
      )}
    </Card>
  );
}

function RolloutSettings({ rollout }: { rollout: Rollout }) {
  const { t, language } = useLanguage();
  const pct = (value: number) => formatPercent(value, language);
  return (
    <Card title={t('firmware.settings')}>
      <DescriptionList
        items={[
          {
            label: t('firmware.target'),
            value: targetLabel(rollout.target, t('firmware.place.whole_fleet')),
          },
          { label: t('firmware.waves'), value: rollout.waves_pct.map(pct).join(' → ') },
          {
            label: t('firmware.start_jitter'),
            value: t('firmware.seconds', { count: rollout.start_jitter_s }),
          },
          { label: t('firmware.max_concurrent'), value: rollout.max_concurrent },
          { label: t('firmware.failure_threshold'), value: pct(rollout.failure_threshold_pct) },
          {
            label: t('firmware.opening_hours'),
            value: rollout.during_opening_hours
              ? t('firmware.opening_hours_yes')
              : t('firmware.opening_hours_no'),
          },
          {
            label: t('firmware.created'),
            value: t('firmware.by_on', {
              name: rollout.created_by_name ?? t('firmware.someone'),
              date: formatDateTime(rollout.created_at, language),
            }),
          },
          { label: t('firmware.finished'), value: formatDateTime(rollout.finished_at, language) },
        ]}
      />
    </Card>
  );
}

function RolloutView({ rollout }: { rollout: Rollout }) {
  const { t } = useLanguage();
  return (
    <>
      <PageHeader
        title={t('firmware.rollout_title', { version: rollout.version })}
        description={
          <span className="flex flex-wrap items-center gap-2">
            {targetLabel(rollout.target, t('firmware.place.whole_fleet'))}
            <RolloutStateBadge state={rollout.state} />
          </span>
        }
        breadcrumbs={[
          { label: t('firmware.title'), to: paths.firmware.getHref() },
          { label: t('firmware.rollouts'), to: paths.firmwareRollouts.getHref() },
        ]}
        actions={<RolloutControls rollout={rollout} />}
      />
      <div className="space-y-6">
        <HaltNotice rollout={rollout} />
        <ProgressSummary rollout={rollout} />
        <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-2">
          <Card title={t('firmware.waves')}>
            <WaveBars rollout={rollout} />
          </Card>
          <StatesOverTime rollout={rollout} />
        </div>
        <RolloutDevicesCard rollout={rollout} />
        <RolloutSettings rollout={rollout} />
      </div>
    </>
  );
}

/**
 * A rollout (/firmware/rollouts/:rolloutId): its progress, read again on each pushed change of it or
 * of its devices (useRolloutLive), and slowly while the live stream is down, until it is over.
 */
export function RolloutPage() {
  const rolloutId = useRequiredParam('rolloutId');
  const live = useRolloutLive(rolloutId);
  const rollout = useRollout(rolloutId, live);
  return (
    <QueryBoundary query={rollout}>{(data) => <RolloutView key={rolloutId} rollout={data} />}</QueryBoundary>
  );
}
