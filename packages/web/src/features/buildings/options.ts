import { CURRENCIES } from '@flowbox/shared';
import { displayNames } from '../../lib/intl.ts';

export type Option = { value: string; label: string };

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** Codes the runtime names but that are groupings or placeholders, not countries. */
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'QO', 'XA', 'XB', 'ZZ']);

/**
 * ISO 3166-1 alpha-2 countries named in the UI language, sorted by name. The shared schema accepts
 * a code the runtime can name; these are the same codes, found the same way.
 */
export function countryOptions(language: string): Option[] {
  const english = displayNames('en', { type: 'region', fallback: 'none' });
  const names = displayNames(language, { type: 'region', fallback: 'code' });
  const options: Option[] = [];
  for (const first of LETTERS) {
    for (const second of LETTERS) {
      const code = first + second;
      const name = english.of(code);
      if (NOT_COUNTRIES.has(code) || !name || name === 'Unknown Region') continue;
      options.push({ value: code, label: names.of(code) ?? code });
    }
  }
  return options.sort((a, b) => a.label.localeCompare(b.label, language));
}

/** "EUR — Euro", in the UI language. */
export function currencyOptions(language: string): Option[] {
  const names = displayNames(language, { type: 'currency', fallback: 'code' });
  return CURRENCIES.map((code) => ({ value: code, label: `${code} — ${names.of(code) ?? code}` }));
}

/**
 * IANA time zones the browser knows, with the record's own (or the browser's) kept even when the
 * list spells it another way ("Asia/Calcutta" and "Asia/Kolkata").
 */
export function timezoneOptions(keep: readonly string[]): Option[] {
  const zones = new Set([...Intl.supportedValuesOf('timeZone'), ...keep.filter(Boolean)]);
  return [...zones].sort().map((zone) => ({ value: zone, label: zone.replaceAll('_', ' ') }));
}
