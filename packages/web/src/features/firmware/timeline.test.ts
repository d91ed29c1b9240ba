import { describe, expect, it } from 'vitest';
import { addSample, MAX_SAMPLES, type StateSample } from './timeline.ts';

const fold = (readings: [number, Record<string, number>][]) =>
  readings.reduce<readonly StateSample[]>((samples, [at, counts]) => addSample(samples, counts, at), []);

describe('the states-over-time samples', () => {
  it('keeps each change and draws a quiet stretch as one flat step', () => {
    const samples = fold([
      [1000, { scheduled: 10 }],
      [3000, { scheduled: 8, started: 2 }],
      [5000, { scheduled: 8, started: 2 }],
      [7000, { scheduled: 8, started: 2 }],
      [9000, { scheduled: 8, started: 2 }],
      [11_000, { scheduled: 8, success: 2 }],
    ]);
    expect(samples.map((s) => s.at)).toEqual([1000, 3000, 9000, 11_000]);
    expect(samples[3]?.counts).toEqual({ waiting: 8, running: 0, success: 2, failed: 0, left_out: 0 });
  });

  it('ignores a reading no newer than the last one (a cached answer read twice)', () => {
    const samples = fold([[1000, { scheduled: 10 }]]);
    expect(addSample(samples, { success: 10 }, 1000)).toBe(samples);
  });

  it('lets the oldest readings go beyond the limit', () => {
    let samples: readonly StateSample[] = [];
    for (let i = 0; i < MAX_SAMPLES + 10; i++) samples = addSample(samples, { success: i }, i + 1);
    expect(samples).toHaveLength(MAX_SAMPLES);
    expect(samples[0]?.at).toBe(11);
  });
});
