import type { Currency, Language } from '@flowbox/shared';

/**
 * A price in its currency, as the UI language writes it ("3.1" EUR → "€3.10" / "3,10 €"). The
 * exact decimal string is handed to Intl as is, so no float rounding creeps in (up to 4 decimals).
 */
export function formatPrice(price: string, currency: Currency, language: Language): string {
  return new Intl.NumberFormat(language, {
    style: 'currency',
    currency,
    maximumFractionDigits: 4,
  }).format(price as Intl.StringNumericLiteral);
}

/** A decimal in the UI language's spelling ("0.75" → "0,75" in French), digits kept as given. */
export function formatDecimal(value: string, language: Language): string {
  return new Intl.NumberFormat(language, { maximumFractionDigits: 4 }).format(
    value as Intl.StringNumericLiteral,
  );
}
