import {
  addBillingPeriods,
  addExact,
  divideExact,
  exactInteger,
  formatAmount,
  fromLiters,
  priceVolume,
  subtractExact,
  EXACT_ZERO,
  type Currency,
  type Exact,
  type PriceRange,
} from '@flowbox/shared';
import { describe, expect, it } from 'vitest';
import type { VersionWithRanges } from '../billing/plans.repo.ts';
import { versionInForce } from '../billing/zone-billing.ts';
import type { DailyVolume, SubscriptionSpan } from './consumption.repo.ts';
import { Amounts, billingPeriods, costDays, type BillingPeriod, type VersionsByPlan } from './costs.ts';
import { addDays } from './windows.ts';

let seed = 11;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
const integer = (max: number) => Math.floor(random() * max);

const TIERS: PriceRange[] = [
  { volume_start: '0', volume_end: '10', price_per_unit: '1.5' },
  { volume_start: '10', volume_end: '30.5', price_per_unit: '2.125' },
  { volume_start: '30.5', volume_end: null, price_per_unit: '3.333333' },
];
const LATER_TIERS: PriceRange[] = [
  { volume_start: '0', volume_end: '0.25', price_per_unit: '0' },
  { volume_start: '0.25', volume_end: null, price_per_unit: '4.75' },
];

function version(fields: Partial<VersionWithRanges>): VersionWithRanges {
  return {
    id: `v${fields.version}`,
    planId: 'plan',
    version: 1,
    fromDate: '2020-01-01',
    billingType: 'monthly',
    acquisitionType: 'pay_as_you_go_fee',
    currency: 'EUR',
    volumeUnit: 'm3',
    archivedAt: null,
    createdAt: new Date(0),
    ranges: TIERS,
    ...fields,
  };
}

describe('Amounts', () => {
  it('rounds a sum of unrelated fractions exactly as formatting their exact sum does', () => {
    for (const currency of ['EUR', 'JPY', 'TND'] as Currency[]) {
      for (let round = 0; round < 300; round++) {
        const amounts = new Amounts();
        let exact = EXACT_ZERO;
        for (let i = 0, count = 1 + integer(40); i < count; i++) {
          const d = BigInt(1 + integer(round % 3 === 0 ? 8 : 10_000_000));
          const n = BigInt(integer(50_000_000)) - (round % 5 === 0 ? 25_000_000n : 0n);
          amounts.add(currency, n, d);
          exact = addExact(exact, divideExact(exactInteger(n), exactInteger(d)));
        }
        expect(amounts.format(currency), `round ${round} in ${currency}`).toBe(formatAmount(exact, currency));
      }
    }
  });

  it('decides amounts exactly on a half minor unit, up and down, from the exact sum', () => {
    const cases: [bigint, bigint][][] = [
      [[1005n, 1000n]],
      [[-1005n, 1000n]],
      [
        [1n, 3n],
        [1n, 6n],
        [1n, 200n],
      ],
      [
        [-1n, 3n],
        [-1n, 6n],
        [-1n, 200n],
      ],
      [
        [1n, 3n],
        [-1n, 3n],
        [-1n, 300n],
      ],
    ];
    for (const terms of cases) {
      const amounts = new Amounts();
      let exact = EXACT_ZERO;
      for (const [n, d] of terms) {
        amounts.add('EUR', n, d);
        exact = addExact(exact, divideExact(exactInteger(n), exactInteger(d)));
      }
      expect(amounts.format('EUR')).toBe(formatAmount(exact, 'EUR'));
    }
  });
});

describe('billing periods', () => {
  it('are those of counting every period from the subscription’s start', () => {
    const versions: VersionsByPlan = new Map([
      ['monthly', [version({ planId: 'monthly' })]],
      ['annual', [version({ planId: 'annual', billingType: 'annual' })]],
    ]);
    for (let i = 0; i < 300; i++) {
      const start = addDays('2019-01-01', integer(2500));
      const sub: SubscriptionSpan = {
        zoneId: 'z',
        planId: i % 3 === 0 ? 'annual' : 'monthly',
        startDate: start,
        endDate: i % 4 === 0 ? addDays(start, integer(2000)) : null,
      };
      const fromDay = addDays('2019-06-01', integer(2500));
      const toDay = addDays(fromDay, 1 + integer(800));
      const expected: BillingPeriod[] = [];
      const type = sub.planId === 'annual' ? 'annual' : 'monthly';
      for (let k = 0; ; k++) {
        const from = addBillingPeriods(start, type, k);
        const end = sub.endDate ?? '9999-12-31';
        if (from >= end || from >= toDay) break;
        const next = addBillingPeriods(start, type, k + 1);
        const to = next < end ? next : end;
        if (to > fromDay) expected.push({ zoneId: 'z', planId: sub.planId, fromDay: from, toDay: to });
      }
      expect(billingPeriods([sub], versions, fromDay, toDay)).toEqual(expected);
    }
  });
});

describe('cost of runs of days', () => {
  /** The definition, day by day: the slice of the tiers between the period's volume before and after. */
  function costByDefinition(
    days: DailyVolume[],
    periods: BillingPeriod[],
    versions: VersionsByPlan,
    keyOf: (day: string) => string | undefined,
  ): Map<string, Exact> {
    const costs = new Map<string, Exact>();
    const price = (v: VersionWithRanges, ml: number) =>
      priceVolume(v.ranges, fromLiters(divideExact(exactInteger(ml), exactInteger(1000)), v.volumeUnit));
    for (const period of periods) {
      let cumulative = 0;
      for (const { day, volumeMl } of [...days].sort((a, b) => a.day.localeCompare(b.day))) {
        if (day < period.fromDay || day >= period.toDay) continue;
        const v = versionInForce(versions.get(period.planId)!, day)!;
        const key = keyOf(day);
        if (key !== undefined)
          costs.set(
            key,
            addExact(
              costs.get(key) ?? EXACT_ZERO,
              subtractExact(price(v, cumulative + volumeMl), price(v, cumulative)),
            ),
          );
        cumulative += volumeMl;
      }
    }
    return costs;
  }

  it('equals pricing each day’s slice of the tiers, with price changes inside periods, in every unit', () => {
    for (const volumeUnit of ['m3', 'liter', 'gallon', 'imperial_gallon'] as const) {
      const versions: VersionsByPlan = new Map([
        [
          'plan',
          [
            version({ version: 3, fromDate: '2026-03-17', ranges: LATER_TIERS, volumeUnit }),
            version({ version: 2, fromDate: '2026-02-10', volumeUnit }),
            version({ version: 1, fromDate: '2025-06-01', ranges: LATER_TIERS, volumeUnit }),
          ],
        ],
      ]);
      const sub: SubscriptionSpan = { zoneId: 'z', planId: 'plan', startDate: '2025-12-31', endDate: null };
      const periods = billingPeriods([sub], versions, '2026-01-01', '2026-06-01');
      const days: DailyVolume[] = [];
      for (let day = '2025-12-31'; day < '2026-06-01'; day = addDays(day, 1))
        days.push({ zoneId: 'z', day, volumeMl: integer(4) === 0 ? 0 : integer(3_000_000) });
      const keyOf = (day: string) => (day >= '2026-01-01' ? day.slice(0, 7 + integer(2) * 3) : undefined);
      // One key function for both: the same random keys, drawn once per day.
      const keys = new Map(days.map((d) => [d.day, keyOf(d.day)]));
      const actual = costDays(days, periods, versions, (day) => keys.get(day));
      const expected = costByDefinition(days, periods, versions, (day) => keys.get(day));
      expect(expected.size).toBeGreaterThan(4);
      for (const key of new Set([...actual.keys(), ...expected.keys()]))
        expect(actual.get(key)?.get('EUR') ?? EXACT_ZERO, `${key} in ${volumeUnit}`).toEqual(
          expected.get(key) ?? EXACT_ZERO,
        );
    }
  });
});
