import { describe, expect, it } from 'vitest';
import { balanceOf, HOUR_MS, judgeNightBucket, nightOf, type HourRow, type Meter } from './balance.ts';

/*
 * The balance's arithmetic apart from the database (docs/automation.md "Building water balance"):
 * which hours count, and what a night says against the thresholds.
 */

const H0 = Date.parse('2026-12-05T00:00:00.000Z');
const hours = (count: number) => Array.from({ length: count }, (_, i) => H0 + i * HOUR_MS);
const span = (list: number[]) => ({
  date: '2026-12-05',
  start: new Date(list[0]!),
  end: new Date(list.at(-1)! + HOUR_MS),
  hours: list,
});
const meter = (flowboxId: string, main: boolean, pairedAt: number | null = null): Meter => ({
  flowboxId,
  serial: flowboxId.toUpperCase(),
  main,
  pairedAt: pairedAt === null ? null : new Date(pairedAt),
});
const row = (hour: number, flowboxId: string, main: boolean, liters: number): HourRow => ({
  hour,
  mainMl: main ? liters * 1000 : 0,
  zonesMl: main ? 0 : liters * 1000,
  flowboxIds: [flowboxId],
});

describe('the hours of a water balance', () => {
  it('counts an hour once every meter reported in it, and leaves out the others', () => {
    const [a, b] = hours(2);
    const meters = [meter('m', true), meter('z', false)];
    const rows = [row(a!, 'm', true, 30), row(a!, 'z', false, 22), row(b!, 'm', true, 30)];
    const { buckets, totals } = balanceOf([span([a!, b!])], meters, rows);
    expect(buckets[0]).toMatchObject({
      main_l: 60,
      zones_l: 22,
      unaccounted_l: 8,
      complete: false,
      incomplete_hours: 1,
      missing: ['Z'],
    });
    expect(totals).toEqual({ mainMl: 30_000, zonesMl: 22_000, completeHours: 1, incompleteHours: 1 });
  });

  it('has nothing to compare before the main supply has a meter, nor when it has none', () => {
    const [a, b] = hours(2);
    const pairedInB = [meter('m', true, b! + 60_000), meter('z', false)];
    const rows = [row(a!, 'z', false, 5), row(b!, 'm', true, 10), row(b!, 'z', false, 5)];
    const { buckets } = balanceOf([span([a!]), span([b!])], pairedInB, rows);
    expect(buckets.map((x) => [x.complete, x.unaccounted_l])).toEqual([
      [false, null],
      [true, 5],
    ]);
    const noMain = balanceOf([span([a!])], [meter('z', false)], [row(a!, 'z', false, 5)]);
    expect(noMain.buckets[0]).toMatchObject({ complete: false, unaccounted_l: null });
  });

  it('makes a night of the hours from local midnight to 05:00, 4 or 6 on a clock change', () => {
    expect(nightOf('2026-12-05', 'Europe/Paris').hours).toHaveLength(5);
    expect(nightOf('2026-03-29', 'Europe/Paris').hours).toHaveLength(4);
    expect(nightOf('2026-10-25', 'Europe/Paris').hours).toHaveLength(6);
    // Kolkata (+05:30): the UTC hours starting in its night, 00:30–05:30 local.
    const kolkata = nightOf('2026-12-05', 'Asia/Kolkata');
    expect(kolkata.hours.map((h) => new Date(h).toISOString().slice(11, 16))).toEqual([
      '19:00',
      '20:00',
      '21:00',
      '22:00',
      '23:00',
    ]);
  });
});

describe('a night against the thresholds', () => {
  const night = (unaccounted: number | null, complete = true) => ({
    start: '',
    end: '',
    date: '2026-12-05',
    main_l: 150,
    zones_l: 110,
    unaccounted_l: unaccounted,
    unaccounted_share: unaccounted === null ? null : unaccounted / 150,
    complete,
    incomplete_hours: complete ? 0 : 1,
    missing: [],
  });
  it('is over from the litres or the share set, under below both, and says nothing when incomplete', () => {
    expect(judgeNightBucket(night(40), { alert_liters_per_night: 40, alert_share_pct: null })).toBe('over');
    expect(judgeNightBucket(night(39.9), { alert_liters_per_night: 40, alert_share_pct: null })).toBe(
      'under',
    );
    expect(judgeNightBucket(night(30), { alert_liters_per_night: null, alert_share_pct: 20 })).toBe('over');
    expect(judgeNightBucket(night(30), { alert_liters_per_night: 100, alert_share_pct: 21 })).toBe('under');
    expect(judgeNightBucket(night(500, false), { alert_liters_per_night: 1, alert_share_pct: 1 })).toBe(
      'incomplete',
    );
  });
});
