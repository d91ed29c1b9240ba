import type { ReactNode } from 'react';
import { Card } from '../../../components/Card.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import {
  ComparisonText,
  formatCost,
  formatVolume,
  unitKey,
  useConsumption,
} from '../../consumption/index.ts';
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
 * Today's water and its cost in the zone: the day window of its consumption (the building's local
 * day), the same query as the graph's day view, so both say the same and stay live together.
 */
export function MyTodayCard({ zoneRef }: { zoneRef: ZoneRef }) {
  const { t, language } = useLanguage();
  const series = useConsumption(zoneRef, 'day');
  const data = series.data;
  return (
    <Card title={t('myzone.today')} headingId="myzone-today-title">
      <div className="grid grid-cols-2 gap-3" aria-busy={series.isPending || undefined}>
        <Figure label={t('myzone.today_volume')} testId="myzone-today-volume">
          <p className="text-2xl font-bold" data-volume={data?.total.volume}>
            {data ? formatVolume(data.total.volume, t(unitKey(data.volume_unit)), language) : '—'}
          </p>
          {data?.comparison && (
            <p className="mt-1 text-sm">
              <ComparisonText comparison={data.comparison} />
            </p>
          )}
        </Figure>
        <Figure label={t('myzone.today_cost')} testId="myzone-today-cost">
          <p className="text-2xl font-bold">
            {data ? formatCost(data.total.cost, data.currency, language) : '—'}
          </p>
        </Figure>
      </div>
    </Card>
  );
}
