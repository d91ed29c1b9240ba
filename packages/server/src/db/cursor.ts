import { AppError } from '../errors.ts';

/*
 * Keyset page cursors: where the last page ended (its row's sort key and tie-break), as a
 * base64url JSON object the client hands back unread. A cursor comes back from anyone, so it is
 * read against a shape of field checks and each value reaches the query only if it is one the
 * server could have written: a time PostgreSQL reads, a uuid, text without control characters,
 * an integer within its column's range. Anything else is the `cursor` field's 400, never a
 * database error (a 500).
 */

/** Longer than any cursor written (a few keys of bounded text), shorter than a costly parse. */
const MAX_CURSOR_LENGTH = 1_000;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** A field's check: the value the query uses, or undefined to refuse the cursor. */
export type CursorField<T> = (value: unknown) => T | undefined;
type Shape = Record<string, CursorField<unknown>>;
export type CursorOf<S extends Shape> = { [K in keyof S]: Exclude<ReturnType<S[K]>, undefined> };

/** A cursor of these fields; a Date is written as its ISO time, as `cursorTime` reads it. */
export function encodeCursor(fields: Record<string, string | number | Date>): string {
  return Buffer.from(JSON.stringify(fields)).toString('base64url');
}

/** The cursor's fields, each checked by the shape's; a cursor not of this shape is a 400. */
export function decodeCursor<S extends Shape>(cursor: string, shape: S): CursorOf<S> {
  const fields = parsed(cursor);
  const keys = Object.keys(shape);
  if (!fields || Object.keys(fields).length !== keys.length) throw invalidCursor();
  const checked: Record<string, unknown> = {};
  for (const key of keys) {
    const value = Object.hasOwn(fields, key) ? shape[key]!(fields[key]) : undefined;
    if (value === undefined) throw invalidCursor();
    checked[key] = value;
  }
  return checked as CursorOf<S>;
}

function parsed(cursor: string): Record<string, unknown> | undefined {
  if (cursor.length > MAX_CURSOR_LENGTH || !BASE64URL.test(cursor)) return undefined;
  try {
    const value: unknown = JSON.parse(UTF8.decode(Buffer.from(cursor, 'base64url')));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

const invalidCursor = () =>
  new AppError('errors.validation', {}, [{ path: 'cursor', message: 'validation.invalid' }]);

const ISO_TIME = /^(\d{4})-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
/** The first year of any time the server writes (`fleet/fleet-list.repo.ts` sorts a missing one as 1970). */
const FIRST_YEAR = 1970;

/**
 * A time as `toISOString` writes it, of a four-digit year from 1970: JavaScript also reads years
 * like +275760 or -000001, which PostgreSQL refuses, and rolls 30 February over to March.
 */
export const cursorTime: CursorField<Date> = (value) => {
  if (typeof value !== 'string') return undefined;
  const year = ISO_TIME.exec(value)?.[1];
  if (year === undefined || Number(year) < FIRST_YEAR) return undefined;
  const at = new Date(value);
  return !Number.isNaN(at.getTime()) && at.toISOString() === value ? at : undefined;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A uuid as PostgreSQL writes it (lower case). */
export const cursorUuid: CursorField<string> = (value) =>
  typeof value === 'string' && UUID.test(value) ? value : undefined;

/** Control characters (U+0000 is text PostgreSQL cannot hold) and UTF-16 halves without their pair. */
const REFUSED_CHARACTER = /[\p{Cc}\p{Cs}]/u;

/** Text of at most `max` characters, none of them a control character or a lone surrogate. */
export function cursorText(max: number): CursorField<string> {
  return (value) =>
    typeof value === 'string' && value.length <= max && !REFUSED_CHARACTER.test(value) ? value : undefined;
}

/** An integer from `min` to `max` (a column's range: past it, PostgreSQL's cast fails). */
export function cursorInteger(min: number, max: number): CursorField<number> {
  return (value) =>
    typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : undefined;
}

/** One of these values exactly (what the cursor was made for, such as a sort). */
export function cursorOneOf<T extends string>(...values: readonly T[]): CursorField<T> {
  return (value) => values.find((v) => v === value);
}
