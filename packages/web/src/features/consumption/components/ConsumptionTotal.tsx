import type { Comparison, Currency, Language } from '@flowbox/shared';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { formatChange, formatCost, formatVolume } from '../format.ts';

type Total = {
  volume: string;
  cost: string | null;
  other_currencies: { currency: Currency; cost: string }[];
};

/** "12.4 m³ · €18.60" plus costs billed in other currencies, never added together. */
export function totalText(total: Total, unitSymbol: string, currency: Currency, language: Language): string {
  return [
    formatVolume(total.volume, unitSymbol, language),
    ...(total.cost === null ? [] : [formatCost(total.cost, currency, language)]),
    ...total.other_currencies.map((other) => formatCost(other.cost, other.currency, language)),
  ].join(' · ');
}

/** The change vs the previous period, or spec §5's "comparison impossible" when one period is 0. */
export function ComparisonText({ comparison }: { comparison: Comparison }) {
  const { t, language } = useLanguage();
  if (comparison.change_pct === null) {
    return (
      <span
        data-testid="consumption-change"
        data-change="impossible"
        className="text-slate-500 dark:text-slate-400"
      >
        {t('consumption.comparison_impossible')}
      </span>
    );
  }
  const change = Number(comparison.change_pct);
  const tone =
    change > 0
      ? 'text-amber-700 dark:text-amber-400'
      : change < 0
        ? 'text-emerald-700 dark:text-emerald-400'
        : '';
  return (
    <span data-testid="consumption-change" data-change={comparison.change_pct} className={tone}>
      {change !== 0 && <span aria-hidden="true">{change > 0 ? '▲ ' : '▼ '}</span>}
      {t('consumption.change', { change: formatChange(comparison.change_pct, language) })}
    </span>
  );
}
