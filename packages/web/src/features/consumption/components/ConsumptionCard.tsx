import type { ConsumptionSeries } from '@flowbox/shared';
import type { ReactNode } from 'react';
import { Alert } from '../../../components/Alert.tsx';
import { Card } from '../../../components/Card.tsx';
import { EmptyState } from '../../../components/EmptyState.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { fileStemOf } from '../api/download-consumption-csv.ts';
import { useConsumption } from '../api/get-consumption.ts';
import { scopeOf, type ConsumptionTarget } from '../api/target.ts';
import {
  BUCKET_OF,
  bucketAxisLabel,
  bucketTitle,
  formatCost,
  formatVolume,
  formatVolumeNumber,
  unitKey,
} from '../format.ts';
import { useConsumptionLive } from '../live/useConsumptionLive.ts';
import { ChartSkeleton } from '../../../components/charts/ChartSkeleton.tsx';
import { ComparisonText, totalText } from './ConsumptionTotal.tsx';
import { ConsumptionTable } from './ConsumptionTable.tsx';
import { CsvButton } from './CsvButton.tsx';
import { LazyBars } from './LazyBars.tsx';
import { useWindowParam, WindowSwitch } from './WindowSwitch.tsx';

const HEIGHT = 260;

export type ConsumptionEmpty = { title: string; hint: ReactNode };

function SeriesView({ series, empty }: { series: ConsumptionSeries; empty: ConsumptionEmpty }) {
  const { t, language } = useLanguage();
  const unit = t(unitKey(series.volume_unit));
  const { window, timezone, currency } = series;
  const previous = series.previous;
  const nothing = Number(series.total.volume) === 0 && (!previous || Number(previous.total.volume) === 0);
  if (nothing) {
    return (
      <div data-testid="consumption-empty">
        <EmptyState title={empty.title}>{empty.hint}</EmptyState>
      </div>
    );
  }
  const volume = (value: string) => formatVolume(value, unit, language);
  const titles = series.buckets.map((bucket) => bucketTitle(bucket, window, timezone, language));
  const previousTitles = previous?.buckets.map((bucket) => bucketTitle(bucket, window, timezone, language));
  const bucketName = t(`consumption.bucket.${BUCKET_OF[window]}`);
  return (
    <>
      {/* A rolling window, said as such: "today" is the calendar day, not these 24 hours (issue 30). */}
      <p className="text-xs font-medium text-slate-600 dark:text-slate-400" data-testid="consumption-window">
        {t(`consumption.window_hint.${window}`)}
      </p>
      <p className="mb-3 text-sm" data-testid="consumption-total" data-volume={series.total.volume}>
        <span className="text-lg font-semibold">{totalText(series.total, unit, currency, language)}</span>
        {series.comparison && (
          <>
            <span aria-hidden="true"> · </span>
            <span className="sr-only">, </span>
            <ComparisonText comparison={series.comparison} />
          </>
        )}
      </p>
      <LazyBars
        height={HEIGHT}
        categories={series.buckets.map((bucket) => bucketAxisLabel(bucket, window, timezone, language))}
        series={[
          {
            name: t('consumption.current_period'),
            values: series.buckets.map((b) => Number(b.volume)),
            tone: 'current',
          },
          ...(previous
            ? [
                {
                  name: t('consumption.previous_period'),
                  values: previous.buckets.map((b) => Number(b.volume)),
                  tone: 'previous' as const,
                },
              ]
            : []),
        ]}
        formatValue={(value) => formatVolumeNumber(value, language)}
        valueName={unit}
        tooltips={series.buckets.map((bucket, index) => {
          const before = previous?.buckets[index];
          return [
            titles[index]!,
            t('consumption.tooltip_line', {
              label: t('consumption.current_period'),
              value: `${volume(bucket.volume)} · ${formatCost(bucket.cost, currency, language)}`,
            }),
            ...(before
              ? [
                  t('consumption.tooltip_line', {
                    label: `${t('consumption.previous_period')} (${previousTitles?.[index]})`,
                    value: `${volume(before.volume)} · ${formatCost(before.cost, currency, language)}`,
                  }),
                ]
              : []),
          ];
        })}
      />
      <ConsumptionTable
        note={
          <p className="text-xs text-slate-500 dark:text-slate-400">
            {t('consumption.timezone_note', { timezone })}
          </p>
        }
        caption={t('consumption.table_caption', {
          bucket: bucketName,
          window: t(`consumption.window_hint.${window}`),
          unit: t(`consumption.unit_name.${series.volume_unit}`),
          timezone,
        })}
        headers={[
          t('consumption.period'),
          `${t('consumption.volume')} (${unit})`,
          t('consumption.cost'),
          `${t('consumption.previous_period')} (${unit})`,
        ]}
        rows={series.buckets.map((bucket, index) => ({
          key: bucket.start,
          cells: [
            titles[index],
            formatVolumeNumber(bucket.volume, language),
            formatCost(bucket.cost, currency, language),
            previous?.buckets[index] ? formatVolumeNumber(previous.buckets[index].volume, language) : '—',
          ],
        }))}
      />
    </>
  );
}

/**
 * The consumption graph of a zone, building, site or customer (issue #6): window switch kept in
 * the URL, total and change vs the previous period, bars of both periods, the same figures as a
 * table, CSV download; refetched live as readings arrive.
 */
/**
 * `name` is the scope's (zone, building…), for the CSV file name. `empty`: what is true when nothing
 * was used (a zone page knows its flowbox, and says whether one is there and listening).
 */
export function ConsumptionCard({
  target,
  name,
  empty: emptyGiven,
}: {
  target: ConsumptionTarget;
  name: string;
  empty?: ConsumptionEmpty;
}) {
  const { t } = useLanguage();
  const [window, setWindow] = useWindowParam();
  const series = useConsumption(target, window);
  useConsumptionLive(target);
  const empty = emptyGiven ?? {
    title: t('consumption.empty'),
    hint: scopeOf(target) === 'zone' ? t('consumption.empty_zone') : t('consumption.empty_scope'),
  };
  return (
    <div data-testid="consumption-card" aria-busy={series.isFetching || undefined}>
      <Card
        title={t('consumption.title')}
        actions={
          <div className="flex flex-wrap items-center gap-2">
            <WindowSwitch value={window} onChange={setWindow} />
            <CsvButton target={target} window={window} fileStem={fileStemOf(name)} />
          </div>
        }
      >
        {series.isPending ? (
          <ChartSkeleton height={HEIGHT} label={t('consumption.loading')} />
        ) : series.isError ? (
          <Alert title={t('dialog.error')}>{series.error.message}</Alert>
        ) : (
          <SeriesView series={series.data} empty={empty} />
        )}
      </Card>
    </div>
  );
}
