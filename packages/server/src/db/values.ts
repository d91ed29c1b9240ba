import { normalizeDecimal } from '@flowbox/shared';

/*
 * Helpers of the data-access layer that every domain's repo uses the same way (issue #14): how a
 * search term goes into LIKE, and how a NUMERIC column comes back out.
 */

/** A search term matched literally by LIKE/ILIKE: its `\`, `%` and `_` escaped. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A NUMERIC column as the API writes decimals ("12.5", not "12.500"); null stays null. */
export function decimalOrNull(value: string | null): string | null {
  return value === null ? null : normalizeDecimal(value);
}
