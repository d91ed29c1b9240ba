import type { PricingPlanVersion } from '@flowbox/shared';
import { useLanguage } from '../../../lib/i18n/index.ts';

/** "0–10: 1.5 · 10–∞: 2 EUR/m³": a version's ranges on one line. */
export function RangesSummary({
  plan,
}: {
  plan: Pick<PricingPlanVersion, 'ranges' | 'currency' | 'volume_unit'>;
}) {
  const { t } = useLanguage();
  return (
    <span className="text-sm">
      {plan.ranges
        .map((r) => `${r.volume_start}–${r.volume_end ?? t('billing.no_end')}: ${r.price_per_unit}`)
        .join(' · ')}{' '}
      <span className="text-slate-500">
        {plan.currency}/{t(`volume_unit.${plan.volume_unit}`)}
      </span>
    </span>
  );
}
