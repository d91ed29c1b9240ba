import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { walkWindows, wallClockMinutes, windowsAfter, windowsRunningAt } from './occurrences.ts';

const nightly = {
  date_start: '2026-01-01',
  date_end: '2026-12-31',
  closing_time: '22:00',
  opening_time: '06:00',
  recurring: true,
  frequency: 'daily' as const,
  interval: 1,
  weekdays: [],
};
const local = (ws: { localStart: string; localEnd: string }[]) => ws.map((w) => [w.localStart, w.localEnd]);
const hours = (w: { start: Date; end: Date }) => (w.end.getTime() - w.start.getTime()) / 3_600_000;

describe('windows in the building time zone across daylight-saving changes', () => {
  it('Europe/Paris spring forward (29 March 2026): 22:00–06:00 stays local, the night is 7 hours', () => {
    const ws = windowsAfter(nightly, 'Europe/Paris', new Date('2026-03-27T12:00:00Z'), 3);
    expect(local(ws)).toEqual([
      ['2026-03-27T22:00', '2026-03-28T06:00'],
      ['2026-03-28T22:00', '2026-03-29T06:00'],
      ['2026-03-29T22:00', '2026-03-30T06:00'],
    ]);
    expect(ws.map((w) => w.start.toISOString())).toEqual([
      '2026-03-27T21:00:00.000Z', // UTC+1
      '2026-03-28T21:00:00.000Z',
      '2026-03-29T20:00:00.000Z', // UTC+2
    ]);
    expect(ws.map(hours)).toEqual([8, 7, 8]);
  });

  it('Europe/Paris fall back (25 October 2026): the night is 9 hours', () => {
    const ws = windowsAfter(nightly, 'Europe/Paris', new Date('2026-10-24T12:00:00Z'), 2);
    expect(local(ws)).toEqual([
      ['2026-10-24T22:00', '2026-10-25T06:00'],
      ['2026-10-25T22:00', '2026-10-26T06:00'],
    ]);
    expect(ws.map(hours)).toEqual([9, 8]);
    expect(ws[0]!.end.toISOString()).toBe('2026-10-25T05:00:00.000Z');
  });

  it('America/New_York spring forward (8 March 2026) and fall back (1 November 2026)', () => {
    const spring = windowsAfter(nightly, 'America/New_York', new Date('2026-03-07T12:00:00Z'), 2);
    expect(local(spring)).toEqual([
      ['2026-03-07T22:00', '2026-03-08T06:00'],
      ['2026-03-08T22:00', '2026-03-09T06:00'],
    ]);
    expect(spring.map((w) => w.start.toISOString())).toEqual([
      '2026-03-08T03:00:00.000Z', // EST, UTC-5
      '2026-03-09T02:00:00.000Z', // EDT, UTC-4
    ]);
    expect(spring.map(hours)).toEqual([7, 8]);
    const fall = windowsAfter(nightly, 'America/New_York', new Date('2026-10-31T12:00:00Z'), 1);
    expect(local(fall)).toEqual([['2026-10-31T22:00', '2026-11-01T06:00']]);
    expect(hours(fall[0]!)).toBe(9);
  });

  it('a weekly closing keeps its local time on both sides of the change', () => {
    const weekly = {
      ...nightly,
      frequency: 'weekly' as const,
      weekdays: ['saturday' as const],
      closing_time: '12:00',
      opening_time: '14:00',
    };
    const ws = windowsAfter(weekly, 'America/New_York', new Date('2026-10-20T00:00:00Z'), 3);
    expect(local(ws).map(([s]) => s)).toEqual(['2026-10-24T12:00', '2026-10-31T12:00', '2026-11-07T12:00']);
    expect(ws.map((w) => w.start.getUTCHours())).toEqual([16, 16, 17]);
  });

  it('a window swallowed by the clock going forward does not happen that day', () => {
    const gap = { ...nightly, closing_time: '02:00', opening_time: '03:00' };
    const ws = windowsAfter(gap, 'Europe/Paris', new Date('2026-03-28T12:00:00Z'), 2);
    expect(local(ws)).toEqual([
      ['2026-03-30T02:00', '2026-03-30T03:00'],
      ['2026-03-31T02:00', '2026-03-31T03:00'],
    ]);
  });
});

describe('recurrence rules', () => {
  it('every 2 days, between the start and end dates (both included)', () => {
    const rule = {
      ...nightly,
      interval: 2,
      date_start: '2026-05-01',
      date_end: '2026-05-07',
      closing_time: '08:00',
      opening_time: '09:00',
    };
    const ws = windowsAfter(rule, 'Europe/Paris', new Date('2026-04-01T00:00:00Z'), 10);
    expect(local(ws).map(([s]) => s)).toEqual([
      '2026-05-01T08:00',
      '2026-05-03T08:00',
      '2026-05-05T08:00',
      '2026-05-07T08:00',
    ]);
  });

  it('monthly on the start date’s day, skipping months without it', () => {
    const rule = {
      ...nightly,
      frequency: 'monthly' as const,
      date_start: '2026-01-31',
      closing_time: '20:00',
      opening_time: '23:00',
    };
    const ws = windowsAfter(rule, 'Europe/Paris', new Date('2026-01-01T00:00:00Z'), 3);
    expect(local(ws).map(([s]) => s)).toEqual(['2026-01-31T20:00', '2026-03-31T20:00', '2026-05-31T20:00']);
  });

  it('a one-off window runs from the start date and time to the end date and time', () => {
    const once = {
      ...nightly,
      recurring: false,
      frequency: null,
      date_start: '2026-12-24',
      date_end: '2027-01-02',
      closing_time: '18:00',
      opening_time: '07:00',
    };
    const [w] = windowsAfter(once, 'Europe/Paris', new Date('2026-12-01T00:00:00Z'), 5);
    expect([w!.localStart, w!.localEnd]).toEqual(['2026-12-24T18:00', '2027-01-02T07:00']);
    expect(wallClockMinutes(once)).toBe(9 * 1440 - 11 * 60);
    expect(windowsAfter(once, 'Europe/Paris', new Date('2027-01-03T00:00:00Z'), 5)).toEqual([]);
  });

  it('the window running at an instant includes one that began the day before', () => {
    const at = new Date('2026-06-10T02:00:00Z'); // 04:00 in Paris
    expect(local(windowsRunningAt(nightly, 'Europe/Paris', at))).toEqual([
      ['2026-06-09T22:00', '2026-06-10T06:00'],
    ]);
    expect(windowsRunningAt(nightly, 'Europe/Paris', new Date('2026-06-10T10:00:00Z'))).toEqual([]);
    expect(wallClockMinutes(nightly)).toBe(480);
  });
});

describe('recurrences expanded from the asked time, not from their first day (issue #20)', () => {
  const WEEKDAY_NAMES = [
    'monday',
    'tuesday',
    'wednesday',
    'thursday',
    'friday',
    'saturday',
    'sunday',
  ] as const;
  const ZONES = ['Europe/Paris', 'America/New_York', 'Pacific/Auckland', 'Asia/Kolkata', 'UTC'];
  const DAY = 86_400_000;
  const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const time = fc
    .tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 30, 59))
    .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
  const rule = fc
    .record({
      start: fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2090, 0, 1) }),
      length: fc.integer({ min: 1, max: 8 * 365 }),
      closing_time: time,
      opening_time: time,
      frequency: fc.constantFrom('daily' as const, 'weekly' as const, 'monthly' as const),
      interval: fc.oneof(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 99 })),
      weekdays: fc.subarray([...WEEKDAY_NAMES]),
    })
    .map((r) => ({
      date_start: dayOf(r.start),
      date_end: dayOf(r.start + r.length * DAY),
      closing_time: r.closing_time,
      opening_time: r.opening_time,
      recurring: true,
      frequency: r.frequency,
      interval: r.interval,
      weekdays: r.frequency === 'weekly' ? r.weekdays : [],
    }));

  it('gives the same windows as the walk from the first day, for any rule, time zone and time', () => {
    fc.assert(
      fc.property(
        rule,
        fc.constantFrom(...ZONES),
        fc.integer({ min: -400, max: 9 * 365 }),
        fc.integer({ min: 0, max: DAY - 1 }),
        fc.integer({ min: 1, max: 12 }),
        (r, timezone, dayOffset, msOfDay, limit) => {
          const from = new Date(Date.parse(r.date_start) + dayOffset * DAY + msOfDay);
          const aligned = walkWindows(r, timezone, from, limit);
          const naive = walkWindows(r, timezone, from, limit, 'date_start');
          expect(aligned.windows).toEqual(naive.windows);
        },
      ),
      { seed: 20, numRuns: 400 },
    );
  });

  it.each([
    ['every day', { frequency: 'daily' as const, interval: 1 }],
    ['every 7 days', { frequency: 'daily' as const, interval: 7 }],
    [
      'every 3 weeks on Tuesdays and Fridays',
      { frequency: 'weekly' as const, interval: 3, weekdays: ['tuesday' as const, 'friday' as const] },
    ],
    ['every month', { frequency: 'monthly' as const, interval: 1 }],
    ['every 99 months', { frequency: 'monthly' as const, interval: 99 }],
  ])('%s since 2000-01-01, asked in 2099, visits a handful of days', (_name, rr) => {
    const old = { ...nightly, weekdays: [], ...rr, date_start: '2000-01-01', date_end: '2099-12-31' };
    const from = new Date('2099-06-15T12:00:00Z');
    const aligned = walkWindows(old, 'Europe/Paris', from, 5);
    const naive = walkWindows(old, 'Europe/Paris', from, 5, 'date_start');
    expect(aligned.windows).toEqual(naive.windows);
    expect(naive.steps).toBeGreaterThan(rr.frequency === 'daily' && rr.interval === 1 ? 36_000 : 3);
    expect(aligned.steps).toBeLessThanOrEqual(12);
  });
});
