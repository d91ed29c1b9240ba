import type { ReactNode } from 'react';
import { Card } from '../../../components/Card.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { formatCost, formatVolume, unitKey, useConsumption } from '../../consumption/index.ts';
import type { ZoneRef } from '../../zones/index.ts';

function Figure({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <div data-testid={testId} className="rounded-lg bg-slate-50 p-3 dark:bg-slate-800/60">
      <h3 className="text-xs font-medium tracking-wide text-slate-600 uppercase dark:text-slate-400">
        {label}
      </h3>
      <div className="mt-1">{children}</div>
    </div>
  );
}

/**
 * Today's water and its cost in the zone: today is the building's calendar day so far, as on the
 * dashboard (issue 30: this card showed the last 24 hours, the dashboard the day). The week window's
 * buckets are the building's local days, today last; yesterday, a whole day, gives a figure to weigh
 * today's by.
 */
export function MyTodayCard({ zoneRef }: { zoneRef: ZoneRef }) {
  const { t, language } = useLanguage();
  const series = useConsumption(zoneRef, 'week');
  const data = series.data;
  const today = data?.buckets.at(-1);
  const yesterday = data?.buckets.at(-2);
  const volume = (value: string) => formatVolume(value, t(unitKey(data!.volume_unit)), language);
  const cost = (value: string | null) => formatCost(value, data!.currency, language);
  return (
    <Card title={t('myzone.today')} headingId="myzone-today-title">
      <div className="grid grid-cols-2 gap-3" aria-busy={series.isPending || undefined}>
        <Figure label={t('myzone.today_volume')} testId="myzone-today-volume">
          <p className="text-2xl font-bold" data-volume={today?.volume}>
            {today ? volume(today.volume) : '—'}
          </p>
          {yesterday && (
            <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
              {t('myzone.yesterday', { value: volume(yesterday.volume) })}
            </p>
          )}
        </Figure>
        <Figure label={t('myzone.today_cost')} testId="myzone-today-cost">
          <p className="text-2xl font-bold">{today ? cost(today.cost) : '—'}</p>
          {yesterday?.cost != null && (
            <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
              {t('myzone.yesterday', { value: cost(yesterday.cost) })}
            </p>
          )}
        </Figure>
      </div>
    </Card>
  );
}
