import { describe, expect, it } from 'vitest';
import {
  ConsumptionModel,
  expectedDailyVolume,
  MODEL_MAX_FLOW_LPM,
  type FaultSpec,
  type ZoneSpec,
} from './consumption.ts';
import { seededRandom } from './random.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Monday 5 January 2026, 00:00 in Paris (UTC+1 in winter). */
const MONDAY = Date.parse('2026-01-04T23:00:00Z');
const SATURDAY = MONDAY + 5 * DAY;

const office: ZoneSpec = {
  profile: 'office',
  timezone: 'Europe/Paris',
  water_points: [
    { type: 'toilet', count: 6 },
    { type: 'sink', count: 6 },
    { type: 'dishwasher' },
    { type: 'fridge' },
  ],
};

/** Litres drawn each minute from `start` for `minutes`, as a device reading every minute sees them. */
function minuteVolumes(
  zone: ZoneSpec,
  seed: number,
  start: number,
  minutes: number,
  faults: FaultSpec[] = [],
) {
  const model = new ConsumptionModel(zone, 'one_inch_v1', seededRandom(seed), faults);
  return Array.from({ length: minutes }, (_, i) =>
    model.advance(start + i * MINUTE, start + (i + 1) * MINUTE, true),
  );
}

const total = (readings: { volumeL: number }[]) => readings.reduce((sum, r) => sum + r.volumeL, 0);

describe('consumption over simulated days', () => {
  it('matches the water-point model on weekdays, within 8 % over 15 days', () => {
    let drawn = 0;
    for (const seed of [1, 2, 3]) drawn += total(minuteVolumes(office, seed, MONDAY, 5 * 24 * 60));
    const expected = 15 * expectedDailyVolume(office, 'weekday');
    expect(expected).toBeGreaterThan(1000);
    expect(Math.abs(drawn - expected) / expected).toBeLessThan(0.08);
  });

  it('matches it for a housing zone over a week, weekends included', () => {
    const housing: ZoneSpec = {
      ...office,
      profile: 'housing',
      water_points: [
        { type: 'shower', count: 10 },
        { type: 'toilet', count: 10 },
        { type: 'washer', count: 4 },
      ],
    };
    let drawn = 0;
    for (const seed of [4, 5]) drawn += total(minuteVolumes(housing, seed, MONDAY, 7 * 24 * 60));
    const expected =
      2 * (5 * expectedDailyVolume(housing, 'weekday') + 2 * expectedDailyVolume(housing, 'weekend'));
    expect(Math.abs(drawn - expected) / expected).toBeLessThan(0.08);
  });

  it('draws next to nothing at night in an office', () => {
    const readings = minuteVolumes(office, 7, MONDAY, 5 * 24 * 60);
    // From 20:00 to 07:00 local: after the last uses of the day have finished, before the first.
    const night = readings.filter((_, minute) => {
      const hour = Math.floor((minute % (24 * 60)) / 60);
      return hour >= 20 || hour < 7;
    });
    expect(total(night)).toBe(0);
    expect(total(readings)).toBeGreaterThan(0);
  });

  it('follows the working day: most of an office weekday falls between 8:00 and 18:00', () => {
    const readings = minuteVolumes(office, 8, MONDAY, 24 * 60);
    const working = readings.slice(8 * 60, 18 * 60);
    expect(total(working) / total(readings)).toBeGreaterThan(0.85);
  });

  it('draws far less on an office weekend than on a weekday', () => {
    const weekday = total(minuteVolumes(office, 9, MONDAY, 2 * 24 * 60));
    const weekend = total(minuteVolumes(office, 9, SATURDAY, 2 * 24 * 60));
    expect(weekend).toBeLessThan(0.1 * weekday);
    expect(expectedDailyVolume(office, 'weekend')).toBeCloseTo(0.03 * expectedDailyVolume(office, 'weekday'));
  });

  it('honours the building’s own weekend', () => {
    const fridaySaturday: ZoneSpec = { ...office, weekend: ['friday', 'saturday'] };
    const sunday = total(minuteVolumes(fridaySaturday, 10, SATURDAY + DAY, 24 * 60));
    const saturday = total(minuteVolumes(fridaySaturday, 10, SATURDAY, 24 * 60));
    expect(sunday).toBeGreaterThan(10 * Math.max(saturday, 1));
  });

  it('is the same for the same seed and differs for another', () => {
    const a = minuteVolumes(office, 11, MONDAY + 8 * HOUR, 120);
    expect(minuteVolumes(office, 11, MONDAY + 8 * HOUR, 120)).toEqual(a);
    expect(minuteVolumes(office, 12, MONDAY + 8 * HOUR, 120)).not.toEqual(a);
  });

  it('never reports more flow seconds than the interval, nor water beyond the model', () => {
    for (const r of minuteVolumes(office, 13, MONDAY, 24 * 60)) {
      expect(r.flowS).toBeLessThanOrEqual(60);
      expect(r.volumeL).toBeLessThanOrEqual(MODEL_MAX_FLOW_LPM.one_inch_v1);
    }
  });
});

describe('faults', () => {
  const quiet: ZoneSpec = { profile: 'office', timezone: 'Europe/Paris', water_points: [] };
  const atNight = MONDAY + 2 * HOUR;

  it.each([
    ['running_toilet', 0.6],
    ['slow_leak', 0.05],
    ['burst_pipe', 0.8 * MODEL_MAX_FLOW_LPM.one_inch_v1],
  ] as const)('%s flows continuously at %s L/min', (kind, lpm) => {
    const readings = minuteVolumes(quiet, 1, atNight, 60, [{ kind }]);
    for (const r of readings) {
      expect(r.volumeL).toBeCloseTo(lpm, 3);
      expect(r.flowS).toBe(60);
    }
  });

  it('flows only during its window, on top of normal use', () => {
    const start = atNight + 10 * MINUTE;
    const readings = minuteVolumes(quiet, 1, atNight, 30, [
      { kind: 'burst_pipe', from: start, until: start + 5 * MINUTE, flowLpm: 50 },
    ]);
    expect(readings.map((r) => r.volumeL)).toEqual([
      ...Array(10).fill(0),
      ...Array(5).fill(50),
      ...Array(15).fill(0),
    ]);
  });

  it('stop when the valve is closed, and normal use with them', () => {
    const model = new ConsumptionModel(office, 'one_inch_v1', seededRandom(1), [{ kind: 'burst_pipe' }]);
    const noon = MONDAY + 12 * HOUR;
    expect(model.advance(noon, noon + HOUR, false)).toEqual({ volumeL: 0, flowS: 0 });
    expect(model.advance(noon + HOUR, noon + HOUR + MINUTE, true).volumeL).toBeGreaterThan(60);
  });

  it('that end when the valve closes stay over once it opens again, the others flow again', () => {
    const ending: FaultSpec = { kind: 'burst_pipe', endsWhenValveCloses: true };
    const model = new ConsumptionModel(quiet, 'one_inch_v1', seededRandom(1), [
      ending,
      { kind: 'slow_leak' },
    ]);
    expect(model.advance(atNight, atNight + MINUTE, true).volumeL).toBeCloseTo(64.05, 3);
    expect(model.advance(atNight + MINUTE, atNight + 2 * MINUTE, false).volumeL).toBe(0);
    expect(model.advance(atNight + 2 * MINUTE, atNight + 3 * MINUTE, true).volumeL).toBeCloseTo(0.05, 3);
  });
});
