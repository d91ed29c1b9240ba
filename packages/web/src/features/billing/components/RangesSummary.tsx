import type { PriceTerms } from '@flowbox/shared';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { numberFormat } from '../../../lib/intl.ts';

/**
 * "0–10: 3.6 · 10–no end: 4.012 € per m³": a version's ranges on one line, numbers in the reader's
 * locale ("3,6", "0,012") and the currency and unit as symbols (issue 30: "EUR/Mètre cube").
 */
export function RangesSummary({ plan }: { plan: Pick<PriceTerms, 'ranges' | 'currency' | 'volume_unit'> }) {
  const { t, language } = useLanguage();
  const decimal = (value: string) =>
    numberFormat(language, { maximumFractionDigits: 4 }).format(value as Intl.StringNumericLiteral);
  const currencySymbol =
    numberFormat(language, { style: 'currency', currency: plan.currency })
      .formatToParts(0)
      .find((part) => part.type === 'currency')?.value ?? plan.currency;
  return (
    <span className="text-sm">
      {plan.ranges
        .map((r) =>
          t('billing.range_price', {
            range: `${decimal(r.volume_start)}–${r.volume_end === null ? t('billing.no_end') : decimal(r.volume_end)}`,
            price: decimal(r.price_per_unit),
          }),
        )
        .join(' · ')}{' '}
      <span className="text-slate-600 dark:text-slate-400">
        {t('billing.per_unit', { currency: currencySymbol, unit: t(`zones.unit.${plan.volume_unit}`) })}
      </span>
    </span>
  );
}
