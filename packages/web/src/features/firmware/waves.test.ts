import { describe, expect, it } from 'vitest';
import { rolloutDonePct, waveBars } from './waves.ts';

const wave = (
  n: number,
  size: number,
  counts: Record<string, number>,
  started: boolean,
  finished: boolean,
) => ({
  wave: n,
  size,
  counts,
  started_at: started ? '2026-11-26T08:00:00.000Z' : null,
  finished_at: finished ? '2026-11-26T08:10:00.000Z' : null,
});

describe('a bar per wave', () => {
  it('shows every planned wave, those the server has not begun sized by the shared wave maths', () => {
    const bars = waveBars({
      total: 200,
      waves_pct: [5, 25, 50, 100],
      waves: [
        wave(1, 10, { success: 9, failed: 1 }, true, true),
        wave(2, 40, { started: 4, scheduled: 36 }, true, false),
      ],
    });
    expect(bars.map((b) => [b.wave, b.size, b.status])).toEqual([
      [1, 10, 'finished'],
      [2, 40, 'running'],
      [3, 50, 'waiting'],
      [4, 100, 'waiting'],
    ]);
    expect(bars[0]?.segments).toEqual([
      { group: 'success', count: 9, pct: 90 },
      { group: 'failed', count: 1, pct: 10 },
    ]);
    expect(bars[1]?.segments).toEqual([
      { group: 'waiting', count: 36, pct: 90 },
      { group: 'running', count: 4, pct: 10 },
    ]);
    expect(bars[3]?.segments).toEqual([]);
  });

  it('has one wave per device at most: a small rollout has fewer bars than percentages', () => {
    expect(waveBars({ total: 2, waves_pct: [5, 25, 50, 100], waves: [] }).map((b) => b.size)).toEqual([1, 1]);
  });

  it('counts a rollout done when each device is in a final state', () => {
    expect(rolloutDonePct({ total: 8, counts: { success: 4, failed: 1, skipped: 1, started: 2 } })).toBe(75);
    expect(rolloutDonePct({ total: 0, counts: {} })).toBe(0);
  });
});
