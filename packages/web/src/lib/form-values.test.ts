import { describe, expect, it } from 'vitest';
import { changesOf, parseCount, parseDecimal } from './form-values.ts';

describe('values typed in text boxes', () => {
  it('reads an empty count as unknown and anything else as a number for the schema to judge', () => {
    expect(parseCount('')).toBeNull();
    expect(parseCount('  ')).toBeNull();
    expect(parseCount('12')).toBe(12);
    expect(parseCount('2.5')).toBe(2.5);
    expect(parseCount('abc')).toBeNaN();
  });

  it('reads a price with a French decimal comma as the exact string the API takes', () => {
    expect(parseDecimal('')).toBeNull();
    expect(parseDecimal(' 3,25 ')).toBe('3.25');
    expect(parseDecimal('0.0042')).toBe('0.0042');
  });
});

describe('changesOf', () => {
  const record = {
    name: 'Tower A',
    price_per_unit: '3.1',
    opening_hours: { monday: [{ start: '08:00', end: '12:00' }], tuesday: [] },
    nbfloor: null,
  };

  it('sends nothing when nothing changed, whatever the spelling of a decimal or the days left out', () => {
    expect(
      changesOf(record, {
        name: 'Tower A',
        price_per_unit: '3.10',
        opening_hours: { tuesday: [], monday: [{ start: '08:00', end: '12:00' }], sunday: [] },
        nbfloor: null,
      }),
    ).toEqual({});
  });

  it('sends only the changed fields, a cleared one as null', () => {
    expect(changesOf(record, { name: 'Tower B', price_per_unit: null, nbfloor: 3 })).toEqual({
      name: 'Tower B',
      price_per_unit: null,
      nbfloor: 3,
    });
  });
});
