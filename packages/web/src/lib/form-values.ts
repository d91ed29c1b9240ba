import { normalizeDecimal, WEEKDAYS } from '@flowbox/shared';
import type { FieldValues, Path, UseFormRegister } from 'react-hook-form';

/**
 * A count typed in a text box: empty is "unknown" (null); anything else goes to the shared schema
 * as a number, so "abc" reads "Must be a number" and "2.5" "Must be an integer" (spec §5).
 */
export function parseCount(raw: unknown): number | null {
  const text = String(raw ?? '').trim();
  return text === '' ? null : Number(text);
}

/** A count field's input props: the numeric keyboard, no autofill, the text read by `parseCount`. */
export function countInput<T extends FieldValues>(register: UseFormRegister<T>, name: Path<T>) {
  return {
    inputMode: 'numeric' as const,
    autoComplete: 'off',
    ...register(name, { setValueAs: parseCount }),
  };
}

/** A French decimal comma is read as the point the API expects ("2,5" → "2.5"). */
export function decimalText(raw: string): string {
  return raw.trim().replace(',', '.');
}

/**
 * A decimal typed in a text box (a price): empty is null; otherwise read by `decimalText`. The
 * shared schema then checks the digits.
 */
export function parseDecimal(raw: unknown): string | null {
  const text = decimalText(String(raw ?? ''));
  return text === '' ? null : text;
}

/** A decimal field's input props: the decimal keyboard, no autofill, the text read by `parseDecimal`. */
export function decimalInput<T extends FieldValues>(register: UseFormRegister<T>, name: Path<T>) {
  return {
    inputMode: 'decimal' as const,
    autoComplete: 'off',
    ...register(name, { setValueAs: parseDecimal }),
  };
}

const DECIMAL_FIELDS = new Set(['price_per_unit', 'nominal_flow_lpm']);

/** One spelling per value, so "3.10" equals "3.1" and hours compare day by day in week order. */
function comparable(key: string, value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (DECIMAL_FIELDS.has(key)) return normalizeDecimal(String(value));
  if (key === 'opening_hours') {
    const week = value as Partial<Record<(typeof WEEKDAYS)[number], unknown>>;
    return JSON.stringify(WEEKDAYS.map((day) => week[day] ?? []));
  }
  return JSON.stringify(value);
}

/**
 * The fields of `values` that differ from the record: an update sends only these, so the activity
 * log names exactly what changed (docs/hierarchy.md, `changed_fields`). Absent values are left out.
 */
export function changesOf<T extends object>(record: object, values: T): Partial<T> {
  const current = record as Record<string, unknown>;
  const changes: Partial<T> = {};
  for (const [key, value] of Object.entries(values) as [keyof T & string, T[keyof T & string]][]) {
    if (value === undefined) continue;
    if (comparable(key, value) !== comparable(key, current[key])) changes[key] = value;
  }
  return changes;
}
