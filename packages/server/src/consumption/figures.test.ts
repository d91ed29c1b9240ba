import { exactInteger, formatExact } from '@flowbox/shared';
import { describe, expect, it } from 'vitest';
import type { ScopeZone } from './consumption.repo.ts';
import {
  addStat,
  bucketIndexer,
  compare,
  hourDays,
  newStat,
  settingsOf,
  statOf,
  sumMl,
  toDate,
  volumeIn,
} from './figures.ts';
import type { Bucket, WindowPlan } from './windows.ts';

const exact = (n: number) => exactInteger(n);
const HOUR = 3_600_000;

describe('millilitres added exactly', () => {
  it('adds as numbers while safe, and past 2^53 without losing a millilitre', () => {
    expect(formatExact(sumMl([1, 2, 3]), 0)).toBe('6');
    const big = Number.MAX_SAFE_INTEGER;
    expect(formatExact(sumMl([big, big, -1]), 0)).toBe((2n * BigInt(big) - 1n).toString());
  });

  it('shows a volume in the zone unit with 3 decimals', () => {
    expect(volumeIn(exact(1_234_567), 'm3')).toBe('1.235');
    expect(volumeIn(exact(1500), 'liter')).toBe('1.500');
  });
});

describe('comparing two periods (spec §5)', () => {
  it('gives the change in percent, one decimal', () => {
    expect(compare(exact(150), exact(100))).toEqual({ change_pct: '50.0', reason: null });
    expect(compare(exact(1), exact(3))).toEqual({ change_pct: '-66.7', reason: null });
  });

  it('is impossible when either period is 0, and says which', () => {
    expect(compare(exact(0), exact(0))).toEqual({ change_pct: null, reason: 'both_zero' });
    expect(compare(exact(0), exact(5))).toEqual({ change_pct: null, reason: 'current_zero' });
    expect(compare(exact(5), exact(0))).toEqual({ change_pct: null, reason: 'previous_zero' });
  });
});

describe('the settings a scope of several zones is shown in', () => {
  const zone = (timezone: string, unit: 'm3' | 'liter'): ScopeZone =>
    ({ timezone, volumeUnit: unit, currency: 'EUR', firstDayOfWeek: 'monday' }) as ScopeZone;

  it('takes what most zones use, the first zone on a tie', () => {
    const settings = settingsOf([zone('Europe/Paris', 'liter'), zone('UTC', 'm3'), zone('UTC', 'liter')]);
    expect(settings).toEqual({ timezone: 'UTC', firstDay: 'monday', unit: 'liter', currency: 'EUR' });
    expect(settingsOf([zone('Europe/Paris', 'liter'), zone('UTC', 'm3')]).timezone).toBe('Europe/Paris');
  });

  it('falls back to the given settings, or UTC and m³ in euros, without zones', () => {
    expect(settingsOf([])).toEqual({ timezone: 'UTC', firstDay: 'monday', unit: 'm3', currency: 'EUR' });
    const fallback = { timezone: 'Asia/Tokyo', firstDay: 'sunday', unit: 'liter', currency: 'CHF' } as const;
    expect(settingsOf([], fallback)).toBe(fallback);
  });
});

describe("the local days of a UTC hour's readings", () => {
  it('is one day where the offset is whole hours', () => {
    expect(hourDays(new Date('2026-03-10T22:00:00Z'), 'Europe/Paris')).toEqual(['2026-03-10']);
    expect(hourDays(new Date('2026-03-10T23:00:00Z'), 'Europe/Paris')).toEqual(['2026-03-11']);
  });

  it('is two days across a half-hour midnight, the later first on a tie', () => {
    expect(hourDays(new Date('2026-03-10T18:00:00Z'), 'Asia/Kolkata')).toEqual(['2026-03-11', '2026-03-10']);
  });
});

describe('the previous period to date', () => {
  it('counts its whole buckets and its last one pro rata of the elapsed share', () => {
    const plan = { elapsed: { n: 1n, d: 4n } } as WindowPlan;
    expect(formatExact(toDate([exact(100), exact(200), exact(400)], plan), 0)).toBe('400');
  });
});

describe('finding the bucket of a day or an instant', () => {
  const bucket = (start: string, hours: number, fromDay: string, toDay: string): Bucket => {
    const at = new Date(start);
    return { start: at, end: new Date(at.getTime() + hours * HOUR), date: fromDay, fromDay, toDay };
  };

  it('finds hourly buckets by arithmetic, and nothing outside them', () => {
    const buckets = [0, 1, 2].map((h) => bucket(`2026-03-10T0${h}:00:00Z`, 1, '2026-03-10', '2026-03-11'));
    const index = bucketIndexer(buckets);
    expect(index.ofInstant(new Date('2026-03-10T01:59:59Z'))).toBe(1);
    expect(index.ofInstant(new Date('2026-03-10T03:00:00Z'))).toBeUndefined();
    expect(index.ofInstant(new Date('2026-03-09T23:59:59Z'))).toBeUndefined();
  });

  it('finds the bucket of each local day of longer buckets', () => {
    const week = bucket('2026-03-09T00:00:00Z', 7 * 24, '2026-03-09', '2026-03-16');
    const next = bucket('2026-03-16T00:00:00Z', 7 * 24, '2026-03-16', '2026-03-23');
    const index = bucketIndexer([week, next]);
    expect(index.ofDay('2026-03-15')).toBe(0);
    expect(index.ofDay('2026-03-16')).toBe(1);
    expect(index.ofDay('2026-03-23')).toBeUndefined();
    expect(index.ofInstant(new Date('2026-03-20T12:00:00Z'))).toBe(1);
  });
});

describe('minimum, average and maximum', () => {
  it('merges partial statistics and rounds the average to 2 decimals', () => {
    const stat = newStat();
    addStat(stat, 2, 5, 7, 2);
    addStat(stat, null, null, 0, 0);
    addStat(stat, 1, 4, 4, 1);
    expect(statOf(stat)).toEqual({ min: 1, avg: 3.67, max: 5 });
  });

  it('is null without any value', () => {
    expect(statOf(newStat())).toBeNull();
  });
});
