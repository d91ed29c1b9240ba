import {
  displayLocalDateTime,
  localDateTime,
  type WaterBalance,
  type WaterBalanceBucket,
  type WaterBalanceBucketKind,
} from '@flowbox/shared';
import { lazy, Suspense, useId, useState } from 'react';
import { Alert } from '../../../components/Alert.tsx';
import { Button } from '../../../components/Button.tsx';
import { Card } from '../../../components/Card.tsx';
import { ChartSkeleton } from '../../../components/charts/ChartSkeleton.tsx';
import { EmptyState } from '../../../components/EmptyState.tsx';
import { TableScroll } from '../../../components/TableScroll.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { numberFormat } from '../../../lib/intl.ts';
import { useWaterBalance, type BuildingRef } from '../api/get-water-balance.ts';
import { WaterBalanceSettingsForm } from './WaterBalanceSettingsForm.tsx';

// ECharts comes with the first graph shown (the consumption graphs' rule).
const BalanceChart = lazy(() =>
  import('./BalanceChart.tsx').then((module) => ({ default: module.BalanceChart })),
);

const KINDS: readonly WaterBalanceBucketKind[] = ['night', 'hour'];

/**
 * A building's water balance (docs/automation.md "Building water balance"): the main supply against
 * the sum of its zones by night or by hour, the unaccounted water highlighted, and for managers the
 * main supply and alert settings. Managers only: it is consumption (docs/permissions.md).
 */
export function WaterBalanceCard({
  building,
  manages,
  zones,
}: {
  building: BuildingRef;
  manages: boolean;
  /** The building's zones, one of which a manager may name the main supply; undefined while loading. */
  zones: readonly { id: string; name: string }[] | undefined;
}) {
  const { t } = useLanguage();
  const [by, setBy] = useState<WaterBalanceBucketKind>('night');
  const balance = useWaterBalance(building, by);
  const headingId = useId();

  const body = () => {
    if (balance.isPending) return <ChartSkeleton height={220} label={t('balance.loading')} />;
    if (balance.isError) return <Alert title={t('dialog.error')}>{balance.error.message}</Alert>;
    const data = balance.data;
    if (data.settings.main_supply_zone_id === null)
      return (
        <EmptyState title={t('balance.no_main_supply')}>
          {manages ? t('balance.no_main_supply_manager') : t('balance.no_main_supply_reader')}
        </EmptyState>
      );
    return <BalanceFigures balance={data} />;
  };

  return (
    <div data-testid="water-balance">
      <Card
        title={t('balance.title')}
        headingId={headingId}
        actions={
          <div role="group" aria-label={t('balance.view')} className="inline-flex gap-1">
            {KINDS.map((kind) => (
              <Button
                key={kind}
                variant={by === kind ? 'primary' : 'secondary'}
                aria-pressed={by === kind}
                title={t(kind === 'night' ? 'balance.by_night_hint' : 'balance.by_hour_hint')}
                onClick={() => setBy(kind)}
              >
                {t(kind === 'night' ? 'balance.by_night' : 'balance.by_hour')}
              </Button>
            ))}
          </div>
        }
      >
        <p className="mb-4 text-sm text-slate-600 dark:text-slate-300">{t('balance.intro')}</p>
        {body()}
        {manages && balance.data && zones && (
          <WaterBalanceSettingsForm building={building} settings={balance.data.settings} zones={zones} />
        )}
      </Card>
    </div>
  );
}

function BalanceFigures({ balance }: { balance: WaterBalance }) {
  const { t, language } = useLanguage();
  const [tableShown, setTableShown] = useState(false);
  const tableId = useId();
  const liters = (value: number) => numberFormat(language, { maximumFractionDigits: 1 }).format(value);
  const withUnit = (value: number) => `${liters(value)}\u00a0L`;
  const share = (value: number | null) =>
    value === null
      ? '—'
      : numberFormat(language, { style: 'percent', maximumFractionDigits: 0 }).format(value);
  const { buckets, totals, timezone, by } = balance;
  const measured = buckets.some((b) => b.main_l > 0 || b.zones_l > 0);
  const label = (bucket: WaterBalanceBucket) =>
    by === 'night'
      ? t('balance.night_of', { date: formatDate(bucket.date, language) })
      : displayLocalDateTime(Date.parse(bucket.start), timezone, language);
  const axisLabel = (bucket: WaterBalanceBucket) =>
    by === 'night'
      ? formatDate(bucket.date, language).slice(0, 5)
      : localDateTime(Date.parse(bucket.start), timezone).slice(11);
  const status = (bucket: WaterBalanceBucket) =>
    bucket.complete ? t('balance.complete') : t('balance.incomplete', { serials: bucket.missing.join(', ') });
  const unaccounted = (bucket: WaterBalanceBucket) =>
    bucket.unaccounted_l === null ? t('balance.not_counted') : withUnit(bucket.unaccounted_l);

  return (
    <>
      <p className="mb-2 text-sm font-medium" data-testid="water-balance-totals">
        {totals.complete_hours > 0
          ? t('balance.totals', {
              unaccounted: withUnit(totals.unaccounted_l),
              main: withUnit(totals.main_l),
              share: share(totals.unaccounted_share),
            })
          : t('balance.totals_none')}
      </p>
      {totals.incomplete_hours > 0 && (
        <p className="mb-4 text-sm text-slate-600 dark:text-slate-300">
          {t('balance.left_out', { count: totals.incomplete_hours })}
        </p>
      )}
      {measured ? (
        <Suspense fallback={<ChartSkeleton height={240} />}>
          <BalanceChart
            height={240}
            categories={buckets.map(axisLabel)}
            main={buckets.map((b) => b.main_l)}
            zones={buckets.map((b) => b.zones_l)}
            unaccounted={buckets.map((b) => (b.complete ? Math.max(0, b.unaccounted_l ?? 0) : 0))}
            incomplete={buckets.map((b) => !b.complete)}
            names={{
              main: t('balance.main_supply'),
              zones: t('balance.zones'),
              unaccounted: t('balance.unaccounted'),
            }}
            formatValue={liters}
            tooltips={buckets.map((b) => [
              label(b),
              `${t('balance.main_supply')}: ${withUnit(b.main_l)}`,
              `${t('balance.zones')}: ${withUnit(b.zones_l)}`,
              `${t('balance.unaccounted')}: ${unaccounted(b)} (${share(b.unaccounted_share)})`,
              status(b),
            ])}
          />
        </Suspense>
      ) : (
        <EmptyState title={t('balance.no_data')} />
      )}
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
        <BalanceTable
          scrolls={tableShown}
          caption={t(by === 'night' ? 'balance.caption_night' : 'balance.caption_hour', {
            timezone: timezone.replaceAll('_', ' '),
          })}
          rows={buckets.map((b) => ({
            key: b.start,
            cells: [
              label(b),
              liters(b.main_l),
              liters(b.zones_l),
              b.unaccounted_l === null
                ? t('balance.not_counted')
                : `${liters(b.unaccounted_l)} (${share(b.unaccounted_share)})`,
              status(b),
            ],
          }))}
        />
      </div>
    </>
  );
}

/**
 * The chart's figures as a table: always read by screen readers, shown on screen when asked. Only a
 * shown table may scroll sideways (and says so); a hidden one is laid out for no one.
 */
function BalanceTable({
  caption,
  rows,
  scrolls,
}: {
  caption: string;
  rows: { key: string; cells: string[] }[];
  scrolls: boolean;
}) {
  const { t } = useLanguage();
  const headers = [
    t('balance.period'),
    `${t('balance.main_supply')} (L)`,
    `${t('balance.zones')} (L)`,
    `${t('balance.unaccounted')} (L)`,
    t('balance.status'),
  ];
  const left = (index: number) => index === 0 || index === headers.length - 1;
  const table = (
    <table className="min-w-full text-sm">
      <caption className="mb-2 text-left text-xs text-slate-500 dark:text-slate-400">{caption}</caption>
      <thead>
        <tr className="border-b border-slate-200 dark:border-slate-700">
          {headers.map((header, index) => (
            <th
              key={header}
              scope="col"
              className={`px-3 py-2 font-medium text-slate-600 dark:text-slate-300 ${left(index) ? 'text-left' : 'text-right'}`}
            >
              {header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key} className="border-b border-slate-100 dark:border-slate-800">
            {row.cells.map((cell, index) =>
              index === 0 ? (
                <th key={index} scope="row" className="px-3 py-2 text-left font-normal whitespace-nowrap">
                  {cell}
                </th>
              ) : (
                <td
                  key={index}
                  className={`px-3 py-2 ${left(index) ? 'text-left' : 'text-right tabular-nums whitespace-nowrap'}`}
                >
                  {cell}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
  return scrolls ? <TableScroll label={caption}>{table}</TableScroll> : table;
}
