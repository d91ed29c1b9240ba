import type { PlanPrices as Prices, PriceTerms } from '@flowbox/shared';
import { formatDate } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { RangesSummary } from './RangesSummary.tsx';

/** The next price terms, with the day they start ("From 01/05/2027: …"). */
export function ComingPrice({ terms }: { terms: PriceTerms }) {
  const { t, language } = useLanguage();
  return (
    <p data-testid="coming-price">
      <span className="font-medium">
        {t('billing.price_from', { date: formatDate(terms.from_date, language) })}
      </span>{' '}
      <RangesSummary plan={terms} />
    </p>
  );
}

/** A plan's price in force today and the coming one with its date (issue 30). */
export function PlanPrices({ prices }: { prices: Prices }) {
  const { t } = useLanguage();
  return (
    <div className="space-y-1 text-sm" data-testid="plan-prices">
      <p>
        <span className="font-medium">{t('billing.price_today')}</span>{' '}
        <RangesSummary plan={prices.current} />
      </p>
      {prices.upcoming && <ComingPrice terms={prices.upcoming} />}
    </div>
  );
}
