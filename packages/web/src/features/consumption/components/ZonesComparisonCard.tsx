import { Link } from 'react-router';
import { Alert } from '../../../components/Alert.tsx';
import { Card } from '../../../components/Card.tsx';
import { EmptyState } from '../../../components/EmptyState.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { useZonesComparison } from '../api/get-zones-comparison.ts';
import type { ConsumptionTarget } from '../api/target.ts';
import { formatChange, formatCost, formatVolume, formatVolumeNumber, unitKey } from '../format.ts';
import { ChartSkeleton } from '../../../components/charts/ChartSkeleton.tsx';
import { ConsumptionTable } from './ConsumptionTable.tsx';
import { LazyBars } from './LazyBars.tsx';
import { useWindowParam } from './WindowSwitch.tsx';

const ROW_HEIGHT = 36;

/**
 * The zones of a building or site side by side over the window chosen for the graph above
 * (same `?window=`), each with its change vs the previous period; refetched by the graph's live
 * updates (same query key prefix).
 */
export function ZonesComparisonCard({ target }: { target: ConsumptionTarget & { siteId: string } }) {
  const { t, language } = useLanguage();
  const [window] = useWindowParam();
  const comparison = useZonesComparison(target, window);
  const withBuilding = !target.buildingId;

  const body = () => {
    if (comparison.isPending) return <ChartSkeleton height={160} label={t('consumption.loading')} />;
    if (comparison.isError) return <Alert title={t('dialog.error')}>{comparison.error.message}</Alert>;
    const { zones, volume_unit: volumeUnit } = comparison.data;
    const used = zones.filter((zone) => Number(zone.volume) > 0 || Number(zone.previous_volume) > 0);
    if (used.length === 0) return <EmptyState title={t('consumption.no_zones')} />;
    const unit = t(unitKey(volumeUnit));
    const change = (pct: string | null) => (pct === null ? '—' : formatChange(pct, language));
    const name = (zone: (typeof used)[number]) =>
      withBuilding ? `${zone.zone_name} (${zone.building_name})` : zone.zone_name;
    return (
      <>
        <LazyBars
          horizontal
          height={Math.max(120, used.length * ROW_HEIGHT + 40)}
          categories={used.map(name)}
          series={[
            {
              name: t('consumption.current_period'),
              values: used.map((z) => Number(z.volume)),
              tone: 'current',
            },
          ]}
          barLabels={used.map((zone) => change(zone.comparison.change_pct))}
          formatValue={(value) => formatVolumeNumber(value, language)}
          valueName={unit}
          tooltips={used.map((zone) => [
            name(zone),
            t('consumption.tooltip_line', {
              label: t('consumption.current_period'),
              value: `${formatVolume(zone.volume, unit, language)} · ${formatCost(zone.cost, zone.currency, language)}`,
            }),
            t('consumption.tooltip_line', {
              label: t('consumption.previous_period'),
              value: formatVolume(zone.previous_volume, unit, language),
            }),
            t('consumption.tooltip_line', {
              label: t('consumption.change_column'),
              value:
                zone.comparison.change_pct === null
                  ? t('consumption.not_comparable')
                  : change(zone.comparison.change_pct),
            }),
          ])}
        />
        <ConsumptionTable
          caption={t('consumption.zones_caption')}
          headers={[
            t('consumption.zone'),
            `${t('consumption.volume')} (${unit})`,
            t('consumption.cost'),
            `${t('consumption.previous_period')} (${unit})`,
            t('consumption.change_column'),
          ]}
          rows={used.map((zone) => ({
            key: zone.zone_id,
            cells: [
              <Link
                key="name"
                to={paths.zone.getHref(target.customerId, target.siteId, zone.building_id, zone.zone_id)}
                className="text-sky-700 hover:underline dark:text-sky-400"
              >
                {name(zone)}
              </Link>,
              formatVolumeNumber(zone.volume, language),
              formatCost(zone.cost, zone.currency, language),
              formatVolumeNumber(zone.previous_volume, language),
              zone.comparison.change_pct === null
                ? t('consumption.not_comparable')
                : change(zone.comparison.change_pct),
            ],
          }))}
        />
      </>
    );
  };

  return (
    <div data-testid="zones-comparison">
      <Card title={t('consumption.zones_title')}>{body()}</Card>
    </div>
  );
}
