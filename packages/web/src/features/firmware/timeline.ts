import type { RolloutTimeline } from '@flowbox/shared';
import type { StateGroup } from './format.ts';

/** The rollout's devices per state group at one moment. */
export type StateSample = { at: number; counts: Record<StateGroup, number> };

/**
 * The chart's samples from the server's states over time (GET /firmware/rollouts/{id}/timeline):
 * the rollout's whole life, whenever the page was opened. The counts come in the answer's group
 * order; a group it does not name counts 0.
 */
export function samplesFromTimeline(timeline: RolloutTimeline): StateSample[] {
  return timeline.points.map((point) => {
    const counts: Record<StateGroup, number> = { waiting: 0, running: 0, success: 0, failed: 0, left_out: 0 };
    timeline.groups.forEach((group, i) => {
      counts[group] = point.counts[i] ?? 0;
    });
    return { at: Date.parse(point.at), counts };
  });
}
