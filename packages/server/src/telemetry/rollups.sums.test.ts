import { describe, expect, it } from 'vitest';
import { rollUp, type Candidate } from './rollups.ts';
import type { BatchFlowbox } from './telemetry.repo.ts';

/* The sums a batch writes (rollups.ts), without a database: rollups.test.ts checks them stored. */

const located = (timezone: string) => ({ timezone }) as BatchFlowbox;

function candidate(
  flowboxId: string,
  at: string,
  volumeMl: number,
  timezone = 'UTC',
  temperatureC: number | null = null,
): Candidate {
  const measuredAt = new Date(at);
  return {
    reading: {
      flowboxId,
      seq: 0,
      zoneId: `zone-of-${flowboxId}`,
      measuredAt,
      intervalS: 60,
      volumeMl,
      flowS: 60,
      temperatureC,
      humidityPct: null,
    },
    located: located(timezone),
    entry: 0,
    placedAt: measuredAt,
    live: true,
  };
}

describe('the hourly and daily sums of a batch', () => {
  it('sums each flowbox by hour and by local day, in key order', () => {
    const { hourly, daily } = rollUp([
      candidate('b', '2026-03-10T10:10:00Z', 5),
      candidate('a', '2026-03-10T10:20:00Z', 1, 'UTC', 12),
      candidate('a', '2026-03-10T10:40:00Z', 2, 'UTC', 10),
      candidate('a', '2026-03-10T11:05:00Z', 4),
    ]);
    expect(hourly.map((h) => [h.flowboxId, h.hour.toISOString(), h.volumeMl, h.readings])).toEqual([
      ['a', '2026-03-10T10:00:00.000Z', 3, 2],
      ['a', '2026-03-10T11:00:00.000Z', 4, 1],
      ['b', '2026-03-10T10:00:00.000Z', 5, 1],
    ]);
    expect(hourly[0]).toMatchObject({
      temperatureMin: 10,
      temperatureMax: 12,
      temperatureSum: 22,
      temperatureCount: 2,
    });
    expect(daily.map((d) => [d.flowboxId, d.day, d.volumeMl, d.readings])).toEqual([
      ['a', '2026-03-10', 7, 3],
      ['b', '2026-03-10', 5, 1],
    ]);
  });

  it("places a reading on its building's local day", () => {
    const { daily } = rollUp([
      candidate('a', '2026-03-10T22:30:00Z', 1, 'Europe/Paris'),
      candidate('a', '2026-03-10T23:30:00Z', 2, 'Europe/Paris'),
    ]);
    expect(daily.map((d) => [d.day, d.volumeMl])).toEqual([
      ['2026-03-10', 1],
      ['2026-03-11', 2],
    ]);
  });
});
