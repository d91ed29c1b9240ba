import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeIssues } from '../validation.ts';
import {
  addBillingPeriods,
  compareExact,
  convertVolume,
  divideExact,
  EXACT_ZERO,
  exactInteger,
  formatExact,
  fromLiters,
  nextRenewal,
  parseExact,
  priceConsumption,
  PriceRangesSchema,
  priceVolume,
  rangeIndexOf,
  rangeIssues,
  toDecimalString,
  toLiters,
  type Exact,
  type PriceRange,
} from './index.ts';
import { VOLUME_UNITS, type VolumeUnit } from '../domain/buildings.ts';

// Seeded so a failure replays the same cases (STYLE.md: deterministic tests).
const SEED = 20261123;
const check = (
  property: fc.IProperty<[unknown, ...unknown[]]> | fc.IAsyncProperty<[unknown, ...unknown[]]>,
) => fc.assert(property, { seed: SEED, numRuns: 300 });

const TIERS: PriceRange[] = [
  { volume_start: '0', volume_end: '10', price_per_unit: '1.5' },
  { volume_start: '10', volume_end: '30', price_per_unit: '2' },
  { volume_start: '30', volume_end: null, price_per_unit: '3.25' },
];

/** Contiguous ranges from 0: strictly increasing ends (in ten-thousandths), the last open. */
const rangesArb = fc
  .tuple(
    fc.uniqueArray(fc.integer({ min: 1, max: 10_000_000 }), { minLength: 0, maxLength: 6 }),
    fc.array(fc.integer({ min: 0, max: 100_000_000 }), { minLength: 7, maxLength: 7 }),
  )
  .map(([ends, prices]): PriceRange[] => {
    const bounds = [0, ...[...ends].sort((a, b) => a - b)];
    const volume = (units: number) => toDecimalString(divideExact(exactInteger(units), exactInteger(10_000)));
    return bounds.map((start, i) => ({
      volume_start: volume(start),
      volume_end: i + 1 < bounds.length ? volume(bounds[i + 1]!) : null,
      price_per_unit: toDecimalString(divideExact(exactInteger(prices[i]!), exactInteger(1_000_000))),
    }));
  });
const volumeArb = fc
  .bigInt({ min: 0n, max: 10n ** 12n })
  .map((units): Exact => divideExact({ n: units, d: 1n }, exactInteger(10_000)));
const unitArb = fc.constantFrom<VolumeUnit>(...VOLUME_UNITS);

describe('exact decimals', () => {
  it('add without float drift: 0.1 + 0.2 is 0.3', () => {
    const sum = priceVolume(
      [{ volume_start: '0', volume_end: null, price_per_unit: '0.1' }],
      parseExact('3'),
    );
    expect(formatExact(sum, 2)).toBe('0.30');
    expect(toDecimalString(parseExact('0.1'))).toBe('0.1');
  });

  it('round half away from zero, once, when shown', () => {
    expect(formatExact(parseExact('2.345'), 2)).toBe('2.35');
    expect(formatExact(parseExact('2.344999'), 2)).toBe('2.34');
    expect(formatExact(parseExact('-2.345'), 2)).toBe('-2.35');
    expect(formatExact(parseExact('0.004'), 2)).toBe('0.00');
    expect(formatExact(parseExact('12'), 0)).toBe('12');
  });

  it('refuse what is not a decimal', () => {
    expect(() => parseExact('1e3')).toThrow();
    expect(() => parseExact('')).toThrow();
    expect(() => parseExact('1.2.3')).toThrow();
  });
});

describe('volume units (spec §3)', () => {
  it('use the exact legal definitions of the gallons', () => {
    expect(formatExact(toLiters(parseExact('1'), 'gallon'), 9)).toBe('3.785411784');
    expect(formatExact(toLiters(parseExact('1'), 'imperial_gallon'), 5)).toBe('4.54609');
    expect(formatExact(toLiters(parseExact('2.5'), 'm3'), 0)).toBe('2500');
    expect(formatExact(fromLiters(parseExact('1000'), 'gallon'), 4)).toBe('264.1721');
  });

  it('round-trip exactly between any two units', () =>
    check(
      fc.property(volumeArb, unitArb, unitArb, (volume, from, to) => {
        const back = convertVolume(convertVolume(volume, from, to), to, from);
        expect(compareExact(back, volume)).toBe(0);
      }),
    ));
});

describe('price ranges (spec §5)', () => {
  it('accept contiguous ranges from 0 whose last has no end', () => {
    expect(rangeIssues(TIERS)).toEqual([]);
    expect(PriceRangesSchema.safeParse(TIERS).success).toBe(true);
  });

  it('say which rule each range breaks, in place, in English and French', () => {
    const result = PriceRangesSchema.safeParse([
      { volume_start: '5', volume_end: '10', price_per_unit: '1' },
      { volume_start: '12', volume_end: '11', price_per_unit: '1' },
      { volume_start: '11', volume_end: '20', price_per_unit: '1' },
    ]);
    expect(result.success).toBe(false);
    const issues = describeIssues(result.error!.issues, 'en');
    expect(issues).toEqual([
      { path: '0.volume_start', message: 'The first range starts at 0' },
      { path: '1.volume_start', message: 'Volumes must be contiguous' },
      { path: '1.volume_end', message: 'End volume must be greater than start volume' },
      { path: '2.volume_end', message: 'The last range must have "No end limit" activated' },
    ]);
    const fr = describeIssues(result.error!.issues, 'fr').map((i) => i.message);
    expect(fr).toContain('Les volumes doivent être contigus');
    expect(fr).toContain('La première tranche commence à 0');
  });

  it('allow "No end limit" on the last range only', () => {
    expect(
      rangeIssues([
        { volume_start: '0', volume_end: null, price_per_unit: '1' },
        { volume_start: '10', volume_end: null, price_per_unit: '1' },
      ]),
    ).toEqual([{ index: 0, field: 'volume_end', message: 'validation.range_only_last_open' }]);
  });

  it('refuse an empty list, a float and too many decimals', () => {
    expect(PriceRangesSchema.safeParse([]).success).toBe(false);
    const float = PriceRangesSchema.safeParse([{ volume_start: 0, volume_end: null, price_per_unit: '1' }]);
    expect(describeIssues(float.error!.issues, 'en')[0]!.message).toBe(
      'Please enter a volume with at most 4 decimals, such as 12.5',
    );
    const price = PriceRangesSchema.safeParse([
      { volume_start: '0', volume_end: null, price_per_unit: '0.0000001' },
    ]);
    expect(price.success).toBe(false);
  });

  it('generated contiguous ranges are valid and cover every volume exactly once', () =>
    check(
      fc.property(rangesArb, volumeArb, (ranges, volume) => {
        expect(rangeIssues(ranges)).toEqual([]);
        const covering = ranges.filter(
          (r) =>
            compareExact(volume, parseExact(r.volume_start)) >= 0 &&
            (r.volume_end === null || compareExact(volume, parseExact(r.volume_end)) < 0),
        );
        expect(covering).toHaveLength(1);
        expect(ranges[rangeIndexOf(ranges, volume)]).toBe(covering[0]);
      }),
    ));
});

describe('pricing a volume through the tiers', () => {
  it('bills each part of the volume at its own range price', () => {
    // 10 × 1.5 + 20 × 2 + 5 × 3.25 = 15 + 40 + 16.25
    expect(formatExact(priceVolume(TIERS, parseExact('35')), 2)).toBe('71.25');
    expect(formatExact(priceVolume(TIERS, parseExact('10')), 2)).toBe('15.00');
    expect(compareExact(priceVolume(TIERS, EXACT_ZERO), EXACT_ZERO)).toBe(0);
  });

  it("prices litres in the plan's unit and rounds once to the currency's minor unit", () => {
    const plan = { ranges: TIERS, volume_unit: 'm3' as const, currency: 'EUR' as const };
    expect(priceConsumption(plan, '35000')).toEqual({
      volume: '35.0000',
      volume_unit: 'm3',
      amount: '71.25',
      currency: 'EUR',
    });
    const gallons = priceConsumption({ ...plan, volume_unit: 'gallon', currency: 'JPY' }, '37.85411784');
    expect(gallons).toMatchObject({ volume: '10.0000', amount: '15' });
    expect(priceConsumption({ ...plan, currency: 'TND' }, '1').amount).toBe('0.002');
  });

  it('never costs less for more volume', () =>
    check(
      fc.property(rangesArb, volumeArb, volumeArb, (ranges, a, b) => {
        const [low, high] = compareExact(a, b) <= 0 ? [a, b] : [b, a];
        expect(compareExact(priceVolume(ranges, low), priceVolume(ranges, high))).toBeLessThanOrEqual(0);
      }),
    ));
});

describe('billing periods', () => {
  it('renew monthly on the start day, or the last day of a shorter month', () => {
    expect(addBillingPeriods('2026-01-31', 'monthly', 1)).toBe('2026-02-28');
    expect(addBillingPeriods('2026-01-31', 'monthly', 2)).toBe('2026-03-31');
    expect(addBillingPeriods('2028-02-29', 'annual', 1)).toBe('2029-02-28');
    expect(addBillingPeriods('2026-11-15', 'monthly', 2)).toBe('2027-01-15');
  });

  it('find the first renewal after a day', () => {
    expect(nextRenewal('2026-01-31', 'monthly', '2026-01-31')).toBe('2026-02-28');
    expect(nextRenewal('2026-01-31', 'monthly', '2026-02-28')).toBe('2026-03-31');
    expect(nextRenewal('2026-03-10', 'annual', '2027-06-01')).toBe('2028-03-10');
  });
});
