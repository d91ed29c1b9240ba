import { addDays, type PriceTerms } from '@flowbox/shared';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Card } from '../../../components/Card.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { useZoneSubscription } from '../../billing/index.ts';
import { usePriceTiers } from '../api/get-price-tiers.ts';
import type { ZoneRef } from '../api/get-zone.ts';
import { formatDecimal } from '../format.ts';
import { Badge } from '../../../components/Badge.tsx';
import { PriceText } from './PriceText.tsx';

/**
 * The price that bills the zone (issue 15): its subscription plan's tiers, the one this billing
 * period's consumption has reached highlighted, and where they come from. Costs are computed from
 * these tiers only (server consumption/costs.ts); the building's price per unit bills nothing, so it
 * is not shown here.
 * The coming price is shown as billing shows it (`comingPrice`, lent by the app).
 */
export function PriceTiersCard({
  zoneRef,
  comingPrice,
}: {
  zoneRef: ZoneRef;
  comingPrice: (terms: PriceTerms) => ReactNode;
}) {
  const { t, language } = useLanguage();
  const tiers = usePriceTiers(zoneRef);
  const subscription = useZoneSubscription(zoneRef);
  const { customerId, siteId, buildingId, zoneId } = zoneRef;
  const subscriptionHref = paths.zoneSubscription.getHref(customerId, siteId, buildingId, zoneId);
  const link = 'font-medium text-sky-700 hover:underline dark:text-sky-400';
  return (
    <Card title={t('zones.section_price')}>
      <QueryBoundary query={tiers}>
        {(data) =>
          data === null ? (
            <p className="text-sm" data-testid="price-tiers">
              {t('zones.price_no_subscription')}{' '}
              <Link to={subscriptionHref} className={link}>
                {t('zones.checklist.subscription_action')}
              </Link>
            </p>
          ) : (
            <div className="space-y-3 text-sm" data-testid="price-tiers">
              <p>
                <Link to={subscriptionHref} className={link}>
                  {t('zones.price_plan', { plan: subscription.data?.current?.pricing_plan_name ?? '…' })}
                </Link>
              </p>
              <ol className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
                {data.ranges.map((range, index) => {
                  const current = index === data.current_range;
                  const unit = t(`zones.unit.${data.volume_unit}`);
                  return (
                    <li
                      key={range.volume_start}
                      data-testid="price-tier"
                      data-current={current}
                      aria-current={current ? 'true' : undefined}
                      className={`flex flex-wrap items-center justify-between gap-2 px-3 py-2 ${
                        current ? 'bg-sky-50 font-medium dark:bg-sky-950' : ''
                      }`}
                    >
                      <span>
                        {range.volume_end === null
                          ? t('zones.price_tier_open', {
                              from: formatDecimal(range.volume_start, language),
                              unit,
                            })
                          : t('zones.price_tier_range', {
                              from: formatDecimal(range.volume_start, language),
                              to: formatDecimal(range.volume_end, language),
                              unit,
                            })}
                      </span>
                      <span className="flex items-center gap-2">
                        <PriceText
                          price={range.price_per_unit}
                          currency={data.currency}
                          volumeUnit={data.volume_unit}
                        />
                        {current && <Badge tone="accent">{t('zones.price_current_tier')}</Badge>}
                      </span>
                    </li>
                  );
                })}
              </ol>
              {data.upcoming && comingPrice(data.upcoming)}
              <p className="text-slate-600 dark:text-slate-400">
                {t('zones.price_period_volume', {
                  volume: formatDecimal(data.period_volume, language),
                  unit: t(`zones.unit.${data.volume_unit}`),
                })}{' '}
                {t('zones.price_period', {
                  from: formatDate(data.period_from, language),
                  to: formatDate(addDays(data.period_to, -1), language),
                })}
              </p>
            </div>
          )
        }
      </QueryBoundary>
    </Card>
  );
}
