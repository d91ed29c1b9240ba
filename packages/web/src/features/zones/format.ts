import type { Language } from '@flowbox/shared';
import { numberFormat } from '../../lib/intl.ts';

/** A price in its currency, as the buildings' screens write it. */
export { formatPrice } from '../buildings/index.ts';

/** A decimal in the UI language's spelling ("0.75" → "0,75" in French), digits kept as given. */
export function formatDecimal(value: string, language: Language): string {
  return numberFormat(language, { maximumFractionDigits: 4 }).format(value as Intl.StringNumericLiteral);
}
