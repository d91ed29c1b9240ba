import { describe, expect, it } from 'vitest';
import { samplesFromTimeline } from './timeline.ts';

describe('the states-over-time samples', () => {
  it('are the server’s points, in its group order, from the rollout’s start', () => {
    const samples = samplesFromTimeline({
      groups: ['waiting', 'running', 'success', 'failed', 'left_out'],
      points: [
        { at: '2026-03-02T10:00:00.000Z', counts: [10, 0, 0, 0, 0] },
        { at: '2026-03-02T10:01:00.000Z', counts: [0, 9, 0, 0, 1] },
        { at: '2026-03-02T10:05:00.000Z', counts: [0, 0, 8, 1, 1] },
      ],
    });
    expect(samples.map((s) => s.at)).toEqual([
      Date.parse('2026-03-02T10:00:00Z'),
      Date.parse('2026-03-02T10:01:00Z'),
      Date.parse('2026-03-02T10:05:00Z'),
    ]);
    expect(samples[2]?.counts).toEqual({ waiting: 0, running: 0, success: 8, failed: 1, left_out: 1 });
  });

  it('reads the counts by the groups the answer names', () => {
    const [sample] = samplesFromTimeline({
      groups: ['success', 'waiting'],
      points: [{ at: '2026-03-02T10:00:00.000Z', counts: [3, 7] }],
    });
    expect(sample?.counts).toEqual({ waiting: 7, running: 0, success: 3, failed: 0, left_out: 0 });
  });
});
