import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { localDate, localDateTime, localToInstant, startOfLocalDay, utcOffsetMs } from './zoned.ts';

/*
 * The time-zone maths against the runtime's own `Intl` reading of the zone data, in zones whose
 * clocks do awkward things: half-hour and 45-minute offsets (Kolkata, Kathmandu, Chatham), a
 * half-hour daylight saving (Lord Howe), changes at midnight (Santiago), a day skipped (Apia,
 * 30 December 2011), and the usual European and American changes.
 */

const ZONES = [
  'UTC',
  'Europe/Paris',
  'America/New_York',
  'America/Santiago',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Australia/Adelaide',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'Pacific/Apia',
];
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The reference: the wall clock `Intl` writes for an instant, "yyyy-MM-ddTHH:mm:ss". */
function intlWallClock(at: number, timezone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(new Date(at))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

const zone = fc.constantFrom(...ZONES);
/** Instants from 1990 to 2110, often on or around the quarter hours where clocks change. */
const instant = fc.oneof(
  fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2110, 0, 1) }),
  fc
    .tuple(
      fc.integer({ min: Date.UTC(1990, 0, 1) / 900_000, max: Date.UTC(2110, 0, 1) / 900_000 }),
      fc.integer({ min: -1, max: 1 }),
    )
    .map(([quarter, ms]) => quarter * 900_000 + ms),
);
const day = fc
  .integer({ min: Date.UTC(1990, 0, 1) / DAY, max: Date.UTC(2100, 0, 1) / DAY })
  .map((n) => new Date(n * DAY).toISOString().slice(0, 10));
const time = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 15, 30, 45, 59))
  .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);

describe('local dates, times and offsets', () => {
  it('are the wall clock Intl reads, at any instant in any zone', () => {
    fc.assert(
      fc.property(instant, zone, (at, timezone) => {
        const wall = intlWallClock(at, timezone);
        expect(localDate(at, timezone)).toBe(wall.slice(0, 10));
        expect(localDateTime(new Date(at), timezone)).toBe(wall.slice(0, 16));
        const asUtc = Date.parse(`${wall}Z`);
        expect(utcOffsetMs(at, timezone)).toBe(asUtc - Math.floor(at / 1000) * 1000);
      }),
      { seed: 14, numRuns: 2000 },
    );
  });

  it("read today in the building's time zone", () => {
    const at = new Date('2026-03-01T23:30:00Z');
    expect(localDate(at, 'Europe/Paris')).toBe('2026-03-02');
    expect(localDate(at, 'America/New_York')).toBe('2026-03-01');
  });

  it('offsets in whole quarter hours, :30 and :45 ones included', () => {
    expect(utcOffsetMs(new Date('2026-10-03T20:10:00Z'), 'Asia/Kathmandu')).toBe(5.75 * HOUR);
    expect(utcOffsetMs(new Date('2026-10-03T20:10:00Z'), 'Asia/Kolkata')).toBe(5.5 * HOUR);
    expect(utcOffsetMs(new Date('2026-04-04T16:29:59Z'), 'Australia/Adelaide')).toBe(10.5 * HOUR);
    expect(utcOffsetMs(new Date('2026-04-04T16:30:00Z'), 'Australia/Adelaide')).toBe(9.5 * HOUR);
    expect(utcOffsetMs(new Date('2026-07-01T00:00:00Z'), 'America/New_York')).toBe(-4 * HOUR);
    expect(localDateTime(new Date('2026-10-03T18:15:00Z'), 'Asia/Kathmandu')).toBe('2026-10-04T00:00');
  });

  it('refuse to write a year outside 0000–9999', () => {
    expect(() => localDate(Date.UTC(9999, 11, 31, 23), 'Asia/Tokyo')).toThrow(RangeError);
    expect(() => localDate(new Date(Number.NaN), 'UTC')).toThrow(RangeError);
    expect(() => startOfLocalDay('9999-12-32', 'UTC')).toThrow(RangeError);
    expect(localDate(Date.UTC(9999, 11, 31, 23), 'UTC')).toBe('9999-12-31');
  });
});

describe('the start of a local day', () => {
  it('is local midnight, also on the days the clocks change', () => {
    const paris = 'Europe/Paris';
    expect(startOfLocalDay('2026-03-29', paris).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(startOfLocalDay('2026-03-30', paris).toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(startOfLocalDay('2026-10-26', paris).toISOString()).toBe('2026-10-25T23:00:00.000Z');
    expect(startOfLocalDay('2026-04-05', 'Australia/Adelaide').toISOString()).toBe(
      '2026-04-04T13:30:00.000Z',
    );
    expect(startOfLocalDay('2026-10-04', 'Asia/Kathmandu').toISOString()).toBe('2026-10-03T18:15:00.000Z');
  });

  it('is the first instant after the gap when midnight does not exist, or the whole day is skipped', () => {
    // No local midnight in Santiago on 2026-09-06 (00:00 → 01:00): the day starts at 01:00.
    expect(startOfLocalDay('2026-09-06', 'America/Santiago').toISOString()).toBe('2026-09-06T04:00:00.000Z');
    // Apia went from 29 to 31 December 2011: the 30th "starts" when the 31st does.
    expect(startOfLocalDay('2011-12-30', 'Pacific/Apia').toISOString()).toBe('2011-12-30T10:00:00.000Z');
    expect(startOfLocalDay('2011-12-31', 'Pacific/Apia').toISOString()).toBe('2011-12-30T10:00:00.000Z');
  });

  it('is, for any day and zone, the first instant whose local date is that day or later', () => {
    fc.assert(
      fc.property(day, zone, (d, timezone) => {
        const start = startOfLocalDay(d, timezone).getTime();
        expect(localDate(start, timezone) >= d).toBe(true);
        expect(localDate(start - 1, timezone) < d).toBe(true);
      }),
      { seed: 14, numRuns: 1000 },
    );
  });
});

describe('the instant of a local date and time', () => {
  it('a time that does not exist moves forward by the gap; one that happens twice is the first', () => {
    expect(localToInstant('2026-03-29', '02:30', 'Europe/Paris').toISOString()).toBe(
      '2026-03-29T01:30:00.000Z',
    );
    expect(localToInstant('2026-10-25', '02:30', 'Europe/Paris').toISOString()).toBe(
      '2026-10-25T00:30:00.000Z',
    );
    expect(localToInstant('2026-03-08', '02:30', 'America/New_York').toISOString()).toBe(
      '2026-03-08T07:30:00.000Z',
    );
    expect(localToInstant('2026-11-01', '01:30', 'America/New_York').toISOString()).toBe(
      '2026-11-01T05:30:00.000Z',
    );
    expect(localToInstant('2026-10-04', '02:15', 'Australia/Lord_Howe').toISOString()).toBe(
      '2026-10-03T15:45:00.000Z',
    );
  });

  it('is the first instant that reads that date and time, for any instant and zone', () => {
    fc.assert(
      fc.property(instant, zone, (at, timezone) => {
        const minute = Math.floor(at / MINUTE) * MINUTE;
        const [date, hhmm] = localDateTime(minute, timezone).split('T') as [string, string];
        const found = localToInstant(date, hhmm, timezone).getTime();
        expect(localDateTime(found, timezone)).toBe(`${date}T${hhmm}`);
        expect(found).toBeLessThanOrEqual(minute);
      }),
      { seed: 14, numRuns: 1000 },
    );
  });

  it('moves a time in a gap forward by the gap, for any date, time and zone', () => {
    fc.assert(
      fc.property(day, time, zone, (d, hhmm, timezone) => {
        const found = localToInstant(d, hhmm, timezone).getTime();
        const asUtc = Date.parse(`${d}T${hhmm}:00Z`);
        const read = Date.parse(`${localDateTime(found, timezone)}:00Z`);
        const gap = utcOffsetMs(found, timezone) - utcOffsetMs(asUtc - DAY, timezone);
        expect(read - asUtc).toBe(read === asUtc ? 0 : gap);
      }),
      { seed: 14, numRuns: 1000 },
    );
  });
});
