import { describe, expect, it } from 'vitest';
import { rolloutTimeline, type TimelineStep } from './rollouts.timeline.ts';

const T0 = Date.parse('2026-03-02T10:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000);
const iso = (s: number) => at(s).toISOString();
const step = (updateId: string, state: TimelineStep['state'], s: number): TimelineStep => ({
  updateId,
  state,
  at: at(s),
});

describe("a rollout's states over time", () => {
  it('replays its devices from waiting through on their way to updated or failed, one point per instant', () => {
    const timeline = rolloutTimeline(
      [
        step('a', 'scheduled', 0),
        step('b', 'scheduled', 0),
        step('c', 'skipped', 0),
        step('a', 'requested', 5),
        step('a', 'requesting', 6),
        step('a', 'started', 7),
        step('b', 'requested', 7),
        step('a', 'downloaded', 9),
        step('a', 'success', 12),
        step('b', 'failed', 12),
      ],
      240,
      null,
    );
    expect(timeline.groups).toEqual(['waiting', 'running', 'success', 'failed', 'left_out']);
    expect(timeline.points).toEqual([
      { at: iso(0), counts: [2, 0, 0, 0, 1] },
      { at: iso(5), counts: [1, 1, 0, 0, 1] },
      { at: iso(7), counts: [0, 2, 0, 0, 1] },
      { at: iso(12), counts: [0, 0, 1, 1, 1] },
    ]);
  });

  it('ends with the counts as they are now for a rollout not over', () => {
    const timeline = rolloutTimeline([step('a', 'scheduled', 0), step('a', 'requested', 3)], 240, at(60));
    expect(timeline.points.at(-1)).toEqual({ at: iso(60), counts: [0, 1, 0, 0, 0] });
    expect(rolloutTimeline([], 240, at(60)).points).toEqual([]);
  });

  it('keeps at most the given number of points for thousands of devices, first and last counts exact', () => {
    const steps: TimelineStep[] = [];
    for (let i = 0; i < 2000; i += 1) steps.push(step(`u${i}`, 'scheduled', 0));
    for (let i = 0; i < 2000; i += 1) {
      steps.push(step(`u${i}`, 'requested', 10 + i));
      steps.push(step(`u${i}`, i % 20 === 0 ? 'timeout' : 'success', 10 + i + 0.5));
    }
    steps.sort((a, b) => a.at.getTime() - b.at.getTime());
    const timeline = rolloutTimeline(steps, 240, null);
    expect(timeline.points.length).toBeLessThanOrEqual(240);
    expect(timeline.points[0]).toEqual({ at: iso(0), counts: [2000, 0, 0, 0, 0] });
    expect(timeline.points.at(-1)).toEqual({ at: iso(2009.5), counts: [0, 0, 1900, 100, 0] });
    const times = timeline.points.map((p) => Date.parse(p.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    for (const p of timeline.points) expect(p.counts.reduce((a, b) => a + b, 0)).toBe(2000);
  });
});
