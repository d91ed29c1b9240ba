import {
  LITERS_PER_UNIT,
  type Backtest,
  type BacktestDecision,
  type BacktestRequestInput,
  type BacktestRun,
} from '@flowbox/shared';
import { Fragment, useEffect, useMemo } from 'react';
import { Alert } from '../../../components/Alert.tsx';
import { Button } from '../../../components/Button.tsx';
import { DataTable, type Column } from '../../../components/DataTable.tsx';
import { EmptyState } from '../../../components/EmptyState.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { formatDate, formatDateTime } from '../../../lib/dates.ts';
import { errorMessage } from '../../../lib/forms.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { formatVolume } from '../../consumption/index.ts';
import { useBacktest } from '../api/run-backtest.ts';
import type { ZoneRef } from '../../../lib/zone-ref.ts';

type Props = {
  zoneRef: ZoneRef;
  /** The settings to try; each part left out is the one in force. */
  request: BacktestRequestInput;
};

/**
 * "Test on the last 30 days" (issue 29, docs/automation.md "Backtest"): what the proposed settings
 * would have done over the zone's stored past, beside what the settings in force did, both replayed
 * by the server through the live detection code. A summary sentence, a timeline to look at, and
 * each closing and alert in a table (the timeline's accessible form).
 */
export function BacktestPanel({ zoneRef, request }: Props) {
  const { t } = useLanguage();
  const backtest = useBacktest(zoneRef);
  const key = JSON.stringify(request);
  const { mutate } = backtest;
  useEffect(() => {
    mutate(JSON.parse(key) as BacktestRequestInput);
  }, [key, mutate]);
  const days = request.days ?? 30;

  if (backtest.isPending || backtest.isIdle)
    return (
      <div
        role="status"
        data-testid="backtest-running"
        className="flex items-center gap-3 rounded-xl border border-slate-200 p-4 text-sm text-sky-800 dark:border-slate-700 dark:text-sky-300"
      >
        <Spinner size="sm" />
        <span>{t('automation.backtest_running', { days })}</span>
      </div>
    );
  if (backtest.isError)
    return (
      <Alert title={t('automation.backtest_failed')}>
        <p>{errorMessage(backtest.error)}</p>
        <Button variant="secondary" className="mt-2" onClick={() => mutate(request)}>
          {t('automation.backtest_retry')}
        </Button>
      </Alert>
    );
  return <BacktestResult result={backtest.data} />;
}

function BacktestResult({ result }: { result: Backtest }) {
  const { t } = useLanguage();
  const { proposed, in_force: inForce, days } = result;
  const nothing = proposed.closings + proposed.alerts === 0 && inForce.closings + inForce.alerts === 0;
  return (
    <div data-testid="backtest-result" className="space-y-4">
      {nothing ? (
        <div role="status">
          <EmptyState title={t('automation.backtest_nothing', { days })}>
            {t('automation.backtest_readings', { count: result.readings })}
          </EmptyState>
        </div>
      ) : (
        <>
          <p role="status" className="text-sm font-medium" data-testid="backtest-summary">
            {summary(t, result)}
          </p>
          <Timeline result={result} />
          <div className="space-y-4">
            <DecisionTable
              run={proposed}
              result={result}
              caption={t('automation.backtest_with_new')}
              testId="backtest-new"
              empty={t('automation.backtest_side_nothing')}
            />
            <DecisionTable
              run={inForce}
              result={result}
              caption={t('automation.backtest_with_in_force')}
              testId="backtest-in-force"
              empty={t('automation.backtest_side_nothing')}
            />
          </div>
          <p className="text-xs text-slate-600 dark:text-slate-400">
            {t('automation.backtest_readings', { count: result.readings })}{' '}
            {t('automation.backtest_assumptions')}
          </p>
        </>
      )}
      {/* Issue 33: the people's own word on the zone's alerts, to weigh the margins by. */}
      {result.answers.me + result.answers.not_me > 0 && (
        <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="backtest-answers">
          {t('automation.backtest_answers', {
            days: result.answers.days,
            me: result.answers.me,
            not_me: result.answers.not_me,
          })}
        </p>
      )}
    </div>
  );
}

type T = ReturnType<typeof useLanguage>['t'];

/** "Would have closed the water 3 times instead of 1, and raised 2 alerts instead of 4." */
function summary(t: T, result: Backtest): string {
  const { proposed: p, in_force: f, days } = result;
  const closings = t('automation.backtest_closings', { count: p.closings, was: f.closings });
  const alerts = t('automation.backtest_alerts', { count: p.alerts, was: f.alerts });
  return t('automation.backtest_summary', { days, closings, alerts });
}

/** One side's decisions, each with its time, what it was, the volume and the flow time. */
function DecisionTable({
  run,
  result,
  caption,
  empty,
  testId,
}: {
  run: BacktestRun;
  result: Backtest;
  caption: string;
  empty: string;
  testId: string;
}) {
  const { t, language } = useLanguage();
  const unit = t(`consumption.unit.${result.volume_unit}`);
  const litresPerUnit = Number(LITERS_PER_UNIT[result.volume_unit]);
  const columns: Column<BacktestDecision & { n: number }>[] = [
    {
      key: 'at',
      header: t('automation.backtest_when'),
      rowHeader: true,
      cell: (d) => formatDateTime(d.at, language),
    },
    { key: 'what', header: t('automation.backtest_what'), cell: (d) => whatOf(t, d) },
    {
      key: 'volume',
      header: t('automation.backtest_volume'),
      cell: (d) => formatVolume(d.volume_l / litresPerUnit, unit, language),
    },
    {
      key: 'flow',
      header: t('automation.backtest_flow'),
      cell: (d) =>
        d.flow_s < 60
          ? t('automation.backtest_seconds', { count: d.flow_s })
          : t('automation.minutes', { count: Math.round(d.flow_s / 60) }),
    },
  ];
  return (
    <section data-testid={testId}>
      <h3 className="mb-2 text-sm font-semibold">
        {t('common.labelled', {
          label: caption,
          value: `${t('automation.backtest_n_closings', { count: run.closings })}, ${t('automation.backtest_n_alerts', { count: run.alerts })}`,
        })}
      </h3>
      <DataTable
        caption={caption}
        columns={columns}
        rows={run.decisions.map((d, n) => ({ ...d, n }))}
        rowKey={(d) => `${d.n}`}
        empty={empty}
      />
      {run.truncated && (
        <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          {t('automation.backtest_truncated', { count: run.decisions.length })}
        </p>
      )}
    </section>
  );
}

function whatOf(t: T, d: BacktestDecision): string {
  if (d.kind === 'closing') return t(`automation.backtest_closing.${d.trigger ?? 'volume'}`);
  if (d.cause === 'abnormal_consumption')
    return d.reported_late
      ? t('automation.backtest_alert_late')
      : t(`automation.backtest_alert.${d.trigger ?? 'volume'}`);
  return t(`automation.backtest_leak.${d.cause === 'leak_detection_mode' ? 'mode' : 'continuous'}`);
}

/**
 * The window as a strip, one row per side: a closing is a red bar, an alert an amber dot. For the
 * eye; the tables below say the same to a screen reader.
 */
function Timeline({ result }: { result: Backtest }) {
  const { t, language } = useLanguage();
  const from = Date.parse(result.from);
  const span = Date.parse(result.to) - from;
  const rows = [
    { label: t('automation.backtest_new_short'), run: result.proposed },
    { label: t('automation.backtest_in_force_short'), run: result.in_force },
  ];
  const ticks = useMemo(() => {
    const list: { at: number; label: string }[] = [];
    const step = result.days > 10 ? 7 : 1;
    for (let day = 0; day < result.days; day += step)
      list.push({
        at: (day * 86_400_000) / span,
        label: formatDate(new Date(from + day * 86_400_000).toISOString(), language).slice(0, 5),
      });
    return list;
  }, [from, span, result.days, language]);
  const left = (at: string) => `${Math.min(100, Math.max(0, ((Date.parse(at) - from) / span) * 100))}%`;
  return (
    <figure aria-hidden="true" data-testid="backtest-timeline" className="text-xs">
      <div className="grid grid-cols-[auto_1fr] items-center gap-x-3 gap-y-2">
        {rows.map((row) => (
          <Fragment key={row.label}>
            <span className="text-slate-600 dark:text-slate-300">{row.label}</span>
            <div className="relative h-6 border-b border-slate-300 dark:border-slate-600">
              {row.run.decisions.map((d, n) =>
                d.kind === 'closing' ? (
                  <span
                    key={n}
                    className="absolute top-0 h-6 w-1.5 -translate-x-1/2 bg-red-600"
                    style={{ left: left(d.at) }}
                  />
                ) : (
                  <span
                    key={n}
                    className="absolute top-3.5 h-2.5 w-2.5 -translate-x-1/2 rounded-full bg-amber-500"
                    style={{ left: left(d.at) }}
                  />
                ),
              )}
            </div>
          </Fragment>
        ))}
        <span />
        <div className="relative h-4 text-slate-500 dark:text-slate-400">
          {ticks.map((tick) => (
            <span key={tick.at} className="absolute top-0" style={{ left: `${tick.at * 100}%` }}>
              {tick.label}
            </span>
          ))}
        </div>
      </div>
      <figcaption className="mt-2 flex flex-wrap gap-4 text-slate-600 dark:text-slate-400">
        <span className="sr-only">{t('automation.backtest_timeline')}</span>
        <span className="flex items-center gap-1">
          <span className="inline-block h-3 w-1.5 bg-red-600" />
          {t('automation.backtest_legend_closing')}
        </span>
        <span className="flex items-center gap-1">
          <span className="inline-block h-2.5 w-2.5 rounded-full bg-amber-500" />
          {t('automation.backtest_legend_alert')}
        </span>
      </figcaption>
    </figure>
  );
}
