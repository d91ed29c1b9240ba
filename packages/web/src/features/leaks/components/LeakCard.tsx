import { displayLocalDateTime, localDateTime, type LeakAnalytics } from '@flowbox/shared';
import { lazy, Suspense, useId, useState } from 'react';
import { Alert } from '../../../components/Alert.tsx';
import { Button } from '../../../components/Button.tsx';
import { Card, DescriptionList } from '../../../components/Card.tsx';
import { ChartSkeleton } from '../../../components/charts/ChartSkeleton.tsx';
import { EmptyState } from '../../../components/EmptyState.tsx';
import { TableScroll } from '../../../components/TableScroll.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { numberFormat } from '../../../lib/intl.ts';
import { useLeaks, type LeakTarget } from '../api/get-leaks.ts';

// ECharts comes with the first graph shown (the consumption graphs' rule).
const NightFlowChart = lazy(() =>
  import('./NightFlowChart.tsx').then((module) => ({ default: module.NightFlowChart })),
);

/**
 * A zone's or a building's leak analytics (docs/automation.md "Leak analytics"): the continuous-flow
 * hour counter, the night flow against the occupants' allowance with a chart of the nights, and the
 * estimated loss a day.
 */
export function LeakCard({ target }: { target: LeakTarget }) {
  const { t } = useLanguage();
  const leaks = useLeaks(target);
  const headingId = useId();
  const body = () => {
    if (leaks.isPending) return <ChartSkeleton height={220} label={t('leaks.loading')} />;
    if (leaks.isError) return <Alert title={t('dialog.error')}>{leaks.error.message}</Alert>;
    if (leaks.data.as_of === null)
      return <EmptyState title={t('leaks.no_data')}>{t('leaks.no_data_hint')}</EmptyState>;
    return <LeakFigures leaks={leaks.data} />;
  };
  return (
    <div data-testid="leaks">
      <Card title={t('leaks.title')} headingId={headingId}>
        <p className="mb-4 text-sm text-slate-600 dark:text-slate-300">{t('leaks.intro')}</p>
        {body()}
      </Card>
    </div>
  );
}

function LeakFigures({ leaks }: { leaks: LeakAnalytics }) {
  const { t, language } = useLanguage();
  const rate = (value: number) =>
    `${numberFormat(language, { maximumFractionDigits: value < 10 ? 1 : 0 }).format(value)}\u00a0L/h`;
  const flow = leaks.continuous_flow;
  const since = flow.since && displayLocalDateTime(Date.parse(flow.since), leaks.timezone, language);
  const counter = flow.active
    ? flow.at_least
      ? t('leaks.counter_active_at_least', { hours: flow.hours })
      : t('leaks.counter_active', { hours: flow.hours, since })
    : flow.hours > 0
      ? t('leaks.counter_running', { hours: flow.hours })
      : t('leaks.counter_zero');
  const volume = `${numberFormat(language, { maximumFractionDigits: 0 }).format(leaks.loss_litres_per_day)}\u00a0L`;
  const cost =
    leaks.loss_cost_per_day !== null && leaks.currency !== null
      ? numberFormat(language, { style: 'currency', currency: leaks.currency }).format(
          Number(leaks.loss_cost_per_day),
        )
      : null;
  const allowance =
    leaks.occupants === null
      ? t('leaks.allowance_default', { flow: rate(leaks.allowance_lph) })
      : t('leaks.allowance_for', { flow: rate(leaks.allowance_lph), count: leaks.occupants });
  const warn = 'font-medium text-amber-700 dark:text-amber-300';
  return (
    <>
      <DescriptionList
        items={[
          {
            label: t('leaks.continuous_flow'),
            value: (
              <span data-testid="leaks-counter" className={flow.active ? warn : undefined}>
                {counter}
              </span>
            ),
          },
          {
            label: t('leaks.night_flow'),
            value:
              leaks.night_flow_lph === null ? (
                t('leaks.night_flow_none')
              ) : (
                <span data-testid="leaks-night-flow" className={leaks.above_allowance ? warn : undefined}>
                  {rate(leaks.night_flow_lph)} ·{' '}
                  {leaks.above_allowance ? t('leaks.above') : t('leaks.within')}
                </span>
              ),
          },
          { label: t('leaks.allowance'), value: allowance },
          {
            label: t('leaks.loss'),
            value: (
              <span data-testid="leaks-loss" className={leaks.loss_litres_per_day > 0 ? warn : undefined}>
                {leaks.loss_litres_per_day > 0
                  ? cost
                    ? t('leaks.loss_day_cost', { volume, cost })
                    : t('leaks.loss_day', { volume })
                  : t('leaks.loss_none')}
              </span>
            ),
          },
          { label: t('leaks.days'), value: t('leaks.days_value', { count: leaks.continuous_flow_days }) },
        ]}
      />
      <NightFlows leaks={leaks} rate={rate} />
      <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">
        {t('leaks.as_of', { date: displayLocalDateTime(Date.parse(leaks.as_of!), leaks.timezone, language) })}
      </p>
    </>
  );
}

function NightFlows({ leaks, rate }: { leaks: LeakAnalytics; rate: (value: number) => string }) {
  const { t, language } = useLanguage();
  const [tableShown, setTableShown] = useState(false);
  const tableId = useId();
  const { nights, allowance_lph: allowance, timezone } = leaks;
  if (nights.length === 0) return <EmptyState title={t('leaks.no_nights')} />;
  const hourOf = (iso: string) => localDateTime(Date.parse(iso), timezone).slice(11);
  const status = (value: number) => (value > allowance ? t('leaks.above_short') : t('leaks.within_short'));
  const caption = t('leaks.caption', { timezone: timezone.replaceAll('_', ' ') });
  const headers = [t('leaks.col_night'), t('leaks.col_min'), t('leaks.col_status')];
  const table = (
    <table className="min-w-full text-sm">
      <caption className="mb-2 text-left text-xs text-slate-500 dark:text-slate-400">{caption}</caption>
      <thead>
        <tr className="border-b border-slate-200 dark:border-slate-700">
          {headers.map((header, index) => (
            <th
              key={header}
              scope="col"
              className={`px-2 py-2 font-medium text-slate-600 dark:text-slate-300 ${index === 1 ? 'text-right' : 'text-left'}`}
            >
              {header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {nights.map((night) => (
          <tr key={night.night} className="border-b border-slate-100 dark:border-slate-800">
            <th scope="row" className="px-2 py-2 text-left font-normal whitespace-nowrap">
              {formatDate(night.night, language)}
            </th>
            <td className="px-2 py-2 text-right whitespace-nowrap tabular-nums">
              {numberFormat(language, { maximumFractionDigits: 3 }).format(night.min_lph)} (
              {hourOf(night.hour)})
            </td>
            <td className="px-2 py-2 text-left">{status(night.min_lph)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
  return (
    <div className="mt-4">
      <Suspense fallback={<ChartSkeleton height={220} />}>
        <NightFlowChart
          height={220}
          categories={nights.map((n) => formatDate(n.night, language).slice(0, 5))}
          nights={nights.map((n) => n.min_lph)}
          allowance={allowance}
          names={{ nights: t('leaks.chart_nights'), allowance: t('leaks.chart_allowance') }}
          formatValue={(value) => numberFormat(language, { maximumFractionDigits: 1 }).format(value)}
          tooltips={nights.map((n) => [
            t('leaks.night_of', { date: formatDate(n.night, language) }),
            `${t('leaks.chart_nights')}: ${rate(n.min_lph)}`,
            t('leaks.lowest_hour', { time: hourOf(n.hour) }),
            `${t('leaks.chart_allowance')}: ${rate(allowance)}`,
          ])}
        />
      </Suspense>
      <div className="mt-3 flex justify-end">
        <Button
          variant="ghost"
          aria-controls={tableId}
          aria-pressed={tableShown}
          onClick={() => setTableShown((shown) => !shown)}
        >
          {tableShown ? t('consumption.hide_table') : t('consumption.show_table')}
        </Button>
      </div>
      <div id={tableId} className={tableShown ? 'mt-4' : 'sr-only'}>
        {tableShown ? <TableScroll label={caption}>{table}</TableScroll> : table}
      </div>
    </div>
  );
}
