import type { Currency, VolumeUnit } from '@flowbox/shared';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { formatPrice } from '../format.ts';

/** "€3.10 per m³": a price per volume unit in the building's currency, or that none is set. */
export function PriceText({
  price,
  currency,
  volumeUnit,
}: {
  price: string | null;
  currency: Currency;
  volumeUnit: VolumeUnit;
}) {
  const { t, language } = useLanguage();
  if (price === null) return <>{t('zones.no_price')}</>;
  return (
    <>
      {t('zones.price_value', {
        price: formatPrice(price, currency, language),
        unit: t(`zones.unit.${volumeUnit}`),
      })}
    </>
  );
}
