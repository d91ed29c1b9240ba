import { z } from 'zod';
import { DATE_MAX, DATE_MIN, daysBetween, isBackendDate, isSupportedDate } from './dates.ts';
import { isMessageKey, translate, type MessageKey } from './i18n/messages.ts';
import { NAME_MAX, PASSWORD_MIN_LENGTH, TEXT_MAX } from './limits.ts';
import type { Language } from './roles.ts';

/**
 * Field building blocks whose messages are catalogue keys (spec §5), so the server and the web
 * translate the same issue into the same sentence.
 */

export const requiredText = (max = NAME_MAX) =>
  z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, 'validation.required')
    .max(max, 'validation.too_long');

export const optionalText = (max = TEXT_MAX) =>
  z.string({ error: 'validation.invalid' }).trim().max(max, 'validation.too_long');

export const emailField = z
  .string({ error: 'validation.required' })
  .trim()
  .toLowerCase()
  .min(1, 'validation.required')
  .max(254, 'validation.too_long')
  .pipe(z.email('validation.email'));

/** spec §5: at least one number and one letter; we also ask for a minimum length. */
export const passwordField = z
  .string({ error: 'validation.required' })
  .min(1, 'validation.required')
  .min(PASSWORD_MIN_LENGTH, 'validation.password_length')
  .max(200, 'validation.too_long')
  .refine((p) => /[0-9]/.test(p) && /[A-Za-z\u00C0-\u024F]/.test(p), 'validation.password');

/**
 * The one date field of the API (docs/reliability.md "Dates: the supported span"): a real calendar
 * day, yyyy-MM-dd, between DATE_MIN and DATE_MAX.
 */
export const backendDate = z
  .string({ error: 'validation.date' })
  .refine((s) => isBackendDate(s), { message: 'validation.date', abort: true })
  .refine((s) => s >= DATE_MIN && s <= DATE_MAX, 'validation.date_span')
  .meta({ format: 'date', description: `yyyy-MM-dd, from ${DATE_MIN} to ${DATE_MAX}` });

/**
 * The checks of a `from`/`to` pair (both included), for an object's `superRefine`: `to` not before
 * `from` (spec §5 "Should be posterior start date") and, when the route enumerates the days (an
 * export), at most `maxDays` days, refused with `tooLong`. Each route picks its bound
 * (docs/reliability.md); the fields themselves are `backendDate`.
 */
export function checkDateRange(
  bound: { maxDays: number; tooLong: MessageKey } | null,
  fields: { from: string; to: string } = { from: 'from', to: 'to' },
) {
  return (value: Record<string, unknown>, ctx: z.RefinementCtx) => {
    const from = value[fields.from];
    const to = value[fields.to];
    if (typeof from !== 'string' || typeof to !== 'string') return;
    if (!isSupportedDate(from) || !isSupportedDate(to)) return;
    if (to < from) ctx.addIssue({ code: 'custom', message: 'validation.end_after_start', path: [fields.to] });
    else if (bound && daysBetween(from, to) + 1 > bound.maxDays)
      ctx.addIssue({ code: 'custom', message: bound.tooLong, path: [fields.to] });
  };
}

export const uuidField = z.uuid('validation.invalid');

export type FieldIssue = { path: string; message: string };

/** Turns zod issues into `{ path, message }` in the user's language. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], language: Language): FieldIssue[] {
  return issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: translate(issueKey(issue), language, issueParams(issue)),
  }));
}

function issueKey(issue: z.core.$ZodIssue): MessageKey {
  // A value of the wrong type is there but invalid, even where the field's message says "required"
  // (`input` is known when the parse reports it, as the server's request validation does).
  const wrongType = issue.code === 'invalid_type' && issue.input !== undefined && issue.input !== null;
  if (isMessageKey(issue.message) && !(wrongType && issue.message === 'validation.required'))
    return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      if (!wrongType) return 'validation.required';
      return issue.expected === 'number' ? 'validation.number' : 'validation.invalid';
    case 'too_big':
      return issue.origin === 'string' ? 'validation.too_long' : 'validation.max';
    case 'invalid_value':
      return 'validation.select';
    default:
      return 'validation.invalid';
  }
}

function issueParams(issue: z.core.$ZodIssue): Record<string, string | number> {
  if (issue.code === 'too_big') return { max: Number(issue.maximum) };
  if (issue.code === 'too_small') return { min: Number(issue.minimum) };
  return {};
}

/** A count (floors, occupants, water points): a whole number of at least 1 (spec §5). */
export const countField = (max: number) =>
  z
    .number({ error: 'validation.number' })
    .int('validation.integer')
    .min(1, 'validation.min_one')
    .max(max, 'validation.max');

/**
 * An exact decimal sent as a string ("2.5", "0.0042"): money and flows are never floats.
 * Up to 8 integer digits and 4 decimals, which fits the database's numeric(12,4).
 */
export const decimalString = z
  .string({ error: 'validation.decimal' })
  .trim()
  .regex(/^\d{1,8}(\.\d{1,4})?$/, 'validation.decimal');

/** "2.5000" and "02.50" are both answered "2.5": the shortest exact spelling. */
export function normalizeDecimal(value: string): string {
  const [whole = '0', fraction = ''] = value.split('.');
  const integer = whole.replace(/^0+(?=\d)/, '');
  const decimals = fraction.replace(/0+$/, '');
  return decimals ? `${integer}.${decimals}` : integer;
}

/**
 * spec §5: deleting an item, or exiting automatic closing, needs its name typed. What a person types
 * matches whatever its case and spaces ("Zone 2" for "zone  2 "), never another accent: one rule
 * for the server's check and the dialog's.
 */
export function typedNameMatches(typed: string, name: string): boolean {
  const tidy = (s: string) => s.normalize('NFC').trim().replace(/\s+/g, ' ');
  return tidy(typed).localeCompare(tidy(name), 'en', { sensitivity: 'accent' }) === 0;
}
