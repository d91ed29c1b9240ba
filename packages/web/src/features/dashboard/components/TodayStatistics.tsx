import type { DashboardToday } from '@flowbox/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Alert } from '../../../components/Alert.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useLiveMessages } from '../../../lib/live.ts';
import { paths } from '../../../paths.ts';
import { useAlertCount } from '../../alerts/index.ts';
import { formatCost, formatVolume, throttle, unitKey } from '../../consumption/index.ts';
import { todayKey, useToday } from '../api/get-today.ts';
import { dateTimeFormat, numberFormat } from '../../../lib/intl.ts';

const CHANGES = ['consumption', 'flowbox', 'flowbox_removed'] as const;
const REFETCH_MS = 2000;

/** New readings and device state changes refetch the figures, at most once every 2 s. */
function useTodayLive(): void {
  const queryClient = useQueryClient();
  const refetch = useRef<ReturnType<typeof throttle> | null>(null);
  useEffect(() => {
    const throttled = throttle(() => void queryClient.invalidateQueries({ queryKey: todayKey }), REFETCH_MS);
    refetch.current = throttled;
    return () => throttled.cancel();
  }, [queryClient]);
  const run = useCallback(() => refetch.current?.run(), []);
  useLiveMessages(CHANGES, run, run);
}

function Tile({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <div
      data-testid={testId}
      className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <h3 className="text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">
        {label}
      </h3>
      <div className="mt-1">{children}</div>
    </div>
  );
}

/**
 * Leak analytics over the caller's zones (docs/automation.md "Leak analytics"): zones with
 * continuous flow and zones above their night allowance, each a link to the fleet so filtered, and
 * the water they lose a day.
 */
function LeaksTile({ leaks }: { leaks: DashboardToday['leaks'] }) {
  const { t, language } = useLanguage();
  const link = 'rounded-md hover:underline focus-visible:outline-2 focus-visible:outline-sky-600';
  const tone = (count: number) =>
    count > 0 ? 'text-amber-700 dark:text-amber-400' : 'text-slate-500 dark:text-slate-400';
  return (
    <Tile label={t('today.leaks')} testId="today-leaks">
      <p className="flex flex-wrap items-baseline gap-x-6 gap-y-1">
        <Link
          to={paths.fleet.getHref({ continuous_flow_days: '1' })}
          aria-label={t('today.continuous_flow_link', { count: leaks.continuous_flow_zones })}
          className={link}
        >
          <span className="text-2xl font-bold">{leaks.continuous_flow_zones}</span>{' '}
          <span className={`ml-1 text-sm ${tone(leaks.continuous_flow_zones)}`}>
            {t('today.continuous_flow', { count: leaks.continuous_flow_zones })}
          </span>
        </Link>
        <Link
          to={paths.fleet.getHref({ night_above_allowance: 'true' })}
          aria-label={t('today.night_above_link', { count: leaks.night_above_allowance_zones })}
          className={link}
        >
          <span className="text-2xl font-bold">{leaks.night_above_allowance_zones}</span>{' '}
          <span className={`ml-1 text-sm ${tone(leaks.night_above_allowance_zones)}`}>
            {t('today.night_above', { count: leaks.night_above_allowance_zones })}
          </span>
        </Link>
        {leaks.loss_litres_per_day > 0 && (
          <span className="text-sm text-slate-600 dark:text-slate-300">
            {t('today.leak_loss', {
              volume: `${numberFormat(language, { maximumFractionDigits: 0 }).format(leaks.loss_litres_per_day)}\u00a0L`,
            })}
          </span>
        )}
      </p>
    </Tile>
  );
}

/** A figure the server does not know yet: a dash, said in words to screen readers. */
function Unknown() {
  const { t } = useLanguage();
  return (
    <>
      <span aria-hidden="true">—</span>
      <span className="sr-only">{t('today.unknown')}</span>
    </>
  );
}

type ComparisonOf = (comparison: DashboardToday['comparison']) => ReactNode;

function Figures({ today, comparison }: { today: DashboardToday; comparison: ComparisonOf }) {
  // The header's count, which alerts keep live; today's figure until it has loaded.
  const alertCount = useAlertCount();
  const openAlerts = alertCount.data?.open ?? today.open_alerts;
  const { t, language } = useLanguage();
  const unit = t(unitKey(today.volume_unit));
  const weekday = dateTimeFormat(language, { weekday: 'long' }).format(new Date());
  const hasUsual = Number(today.same_weekday_average) > 0;
  const costs = [
    ...(today.cost_today === null ? [] : [formatCost(today.cost_today, today.currency, language)]),
    ...today.other_currencies.map((other) => formatCost(other.cost, other.currency, language)),
  ];
  return (
    <>
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        <Tile label={t('today.volume')} testId="today-volume">
          <p className="text-2xl font-bold" data-volume={today.volume_today}>
            {formatVolume(today.volume_today, unit, language)}
          </p>
          <p className="mt-1 text-sm">{comparison(today.comparison)}</p>
          {hasUsual && (
            <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
              {t('today.volume_usual_to_date', {
                weekday,
                volume: formatVolume(today.usual_to_date, unit, language),
                day: formatVolume(today.same_weekday_average, unit, language),
              })}
            </p>
          )}
        </Tile>
        <Tile label={t('today.cost')} testId="today-cost">
          <p className="text-2xl font-bold">{costs.length > 0 ? costs.join(' · ') : <Unknown />}</p>
        </Tile>
        <Tile label={t('today.devices')} testId="today-devices">
          <p className="text-2xl font-bold">
            <Link
              to={paths.fleet.getHref({ offline: 'false' })}
              aria-label={t('today.online_link', { count: today.devices.online })}
              className="rounded-md hover:underline focus-visible:outline-2 focus-visible:outline-sky-600"
            >
              {today.devices.online}{' '}
              <span className="ml-1 text-sm font-normal text-emerald-700 dark:text-emerald-400">
                {t('today.online')}
              </span>
            </Link>
          </p>
          <p className="text-sm">
            <Link
              to={paths.fleet.getHref({ offline: 'true' })}
              aria-label={t('today.offline_link', { count: today.devices.offline })}
              className="rounded-md hover:underline focus-visible:outline-2 focus-visible:outline-sky-600"
            >
              {today.devices.offline}{' '}
              <span
                className={`ml-1 ${today.devices.offline > 0 ? 'text-amber-700 dark:text-amber-400' : 'text-slate-500 dark:text-slate-400'}`}
              >
                {t('today.offline')}
              </span>
            </Link>
          </p>
        </Tile>
        <Tile label={t('today.alerts')} testId="today-alerts">
          <p className="text-2xl font-bold">
            <Link
              to={paths.alerts.getHref()}
              className="rounded-md hover:underline focus-visible:outline-2 focus-visible:outline-sky-600"
            >
              {openAlerts}
            </Link>
          </p>
        </Tile>
        <div className="col-span-2 lg:col-span-4">
          <LeaksTile leaks={today.leaks} />
        </div>
      </div>
      <div className="mt-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <h3 className="mb-2 text-sm font-semibold">{t('today.top_zones')}</h3>
        {today.top_zones.length === 0 ? (
          <p className="text-sm text-slate-500 dark:text-slate-400">{t('today.no_top_zones')}</p>
        ) : (
          <ol className="divide-y divide-slate-100 dark:divide-slate-800" data-testid="today-top-zones">
            {today.top_zones.map((zone) => (
              <li key={zone.zone_id} className="flex items-baseline justify-between gap-4 py-1.5 text-sm">
                <span className="min-w-0">
                  <Link
                    to={paths.zone.getHref(zone.customer_id, zone.site_id, zone.building_id, zone.zone_id)}
                    className="font-medium text-sky-700 hover:underline dark:text-sky-400"
                  >
                    {zone.zone_name}
                  </Link>
                  <span className="ml-2 text-slate-500 dark:text-slate-400">{zone.building_name}</span>
                </span>
                <span className="shrink-0 tabular-nums">{formatVolume(zone.volume, unit, language)}</span>
              </li>
            ))}
          </ol>
        )}
      </div>
    </>
  );
}

/**
 * The figures' footprint while they load: the volume tile's row is as tall as its three lines of
 * text, and the top zones' card is there, so nothing below moves when the figures come (Lighthouse
 * counted a 0.12 layout shift on the dashboard with the former row of short tiles, issue 16).
 */
function FiguresPlaceholder({ label }: { label: string }) {
  const tile = 'animate-pulse rounded-xl bg-slate-100 dark:bg-slate-800/60';
  return (
    <div role="status" aria-label={label}>
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        <div className={`${tile} h-48 lg:h-44`} />
        <div className={`${tile} h-48 lg:h-44`} />
        <div className={`${tile} h-26 lg:h-44`} />
        <div className={`${tile} h-26 lg:h-44`} />
        <div className={`${tile} col-span-2 h-24 lg:col-span-4`} />
      </div>
      <div className={`${tile} mt-4 h-40`} />
    </div>
  );
}

/**
 * Today's statistics on the dashboard (spec §2), live; a figure not known yet shows "—", never a guess.
 * The change against yesterday is told as consumption tells it (`comparison`).
 */
export function TodayStatistics({ comparison }: { comparison: ComparisonOf }) {
  const { t } = useLanguage();
  const today = useToday();
  useTodayLive();
  return (
    <section
      aria-labelledby="today-title"
      data-testid="dashboard-statistics"
      aria-busy={today.isFetching || undefined}
    >
      <h2 id="today-title" className="mb-3 text-base font-semibold">
        {t('dashboard.today')}
      </h2>
      {today.isPending ? (
        <FiguresPlaceholder label={t('common.loading')} />
      ) : today.isError ? (
        <Alert title={t('dialog.error')}>{today.error.message}</Alert>
      ) : (
        <Figures today={today.data} comparison={comparison} />
      )}
    </section>
  );
}
