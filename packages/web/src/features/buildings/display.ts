import type { Currency } from '@flowbox/shared';
import { displayNames, numberFormat } from '../../lib/intl.ts';

/**
 * A price per unit in the building's currency. The API's exact decimal string is formatted as a
 * string, so no float rounding creeps in (docs/decisions.md, money as decimal strings).
 */
export function formatPrice(price: string, currency: Currency, language: string): string {
  return numberFormat(language, { style: 'currency', currency, maximumFractionDigits: 4 }).format(
    price as `${number}`,
  );
}

/** A country code named in the UI language ("CH" → "Suisse"). */
export function countryName(code: string, language: string): string {
  return displayNames(language, { type: 'region', fallback: 'code' }).of(code) ?? code;
}
