import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import {
  cursorInteger,
  cursorOneOf,
  cursorText,
  cursorTime,
  cursorUuid,
  decodeCursor,
  encodeCursor,
} from './cursor.ts';

const ID = '6f1c2a9e-3b4d-4c5e-8f60-718293a4b5c6';
const shape = {
  at: cursorTime,
  id: cursorUuid,
  n: cursorInteger(0, 10),
  s: cursorText(8),
  k: cursorOneOf('a'),
};

const refused = (cursor: string) => {
  try {
    decodeCursor(cursor, shape);
  } catch (error) {
    return error instanceof AppError && error.details?.[0]?.path === 'cursor';
  }
  return false;
};

describe('a keyset cursor', () => {
  it('reads back what was written, a time as a Date', () => {
    const at = new Date('2026-03-01T10:20:30.456Z');
    const cursor = encodeCursor({ at, id: ID, n: 3, s: 'FB-1', k: 'a' });
    expect(decodeCursor(cursor, shape)).toEqual({ at, id: ID, n: 3, s: 'FB-1', k: 'a' });
  });

  it.each([
    ['a time before 1970', { at: '1969-12-31T23:59:59.999Z' }],
    ['a six-digit year', { at: '+275760-09-13T00:00:00.000Z' }],
    ['a negative year', { at: '-000001-01-01T00:00:00.000Z' }],
    ['30 February', { at: '2026-02-30T00:00:00.000Z' }],
    ['a time of another form', { at: '2026-03-01T10:20:30Z' }],
    ['an id in capitals', { id: ID.toUpperCase() }],
    ['an integer past its maximum', { n: 11 }],
    ['a fraction', { n: 0.5 }],
    ['a number as text', { n: '3' }],
    ['text too long', { s: 'x'.repeat(9) }],
    ['U+0000', { s: 'a\u0000' }],
    ['a control character', { s: '\u007f' }],
    ['a lone surrogate', { s: '\ud800' }],
    ['another value than the one it was made for', { k: 'b' }],
    ['a field of another type', { k: ['a'] }],
    ['a missing field', { k: undefined }],
    ['one more field', { more: 1 }],
  ])('is refused with %s', (_, change) => {
    const fields = { at: '2026-03-01T10:20:30.456Z', id: ID, n: 3, s: 'FB-1', k: 'a', ...change };
    expect(refused(Buffer.from(JSON.stringify(fields)).toString('base64url'))).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['not base64url', 'e30=+/'],
    ['not JSON', Buffer.from('2026-01-01|x').toString('base64url')],
    ['not UTF-8', Buffer.from([0xff, 0xfe]).toString('base64url')],
    ['an array', Buffer.from('[1]').toString('base64url')],
    ['longer than any cursor written', 'A'.repeat(1_001)],
  ])('is refused when %s', (_, cursor) => {
    expect(refused(cursor)).toBe(true);
  });
});
