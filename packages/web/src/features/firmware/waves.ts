import { waveSizes, type Rollout } from '@flowbox/shared';
import { groupCounts, percentOf, STATE_GROUPS, type StateCounts, type StateGroup } from './format.ts';

export type WaveSegment = { group: StateGroup; count: number; pct: number };

export type WaveBar = {
  /** 1-based, as the API numbers waves. */
  wave: number;
  size: number;
  status: 'waiting' | 'running' | 'finished';
  counts: Record<StateGroup, number>;
  /** The groups present, in STATE_GROUPS order, each its share of the wave's width. */
  segments: WaveSegment[];
};

/**
 * One bar per wave of a rollout: every planned wave (docs/firmware.md "Waves"), those not begun
 * yet included, sized by the shared wave maths when the server has not listed them.
 */
export function waveBars(rollout: Pick<Rollout, 'total' | 'waves_pct' | 'waves'>): WaveBar[] {
  const planned = waveSizes(rollout.total, rollout.waves_pct);
  const count = Math.max(planned.length, ...rollout.waves.map((w) => w.wave));
  return Array.from({ length: count }, (_, index) => {
    const wave = index + 1;
    const listed = rollout.waves.find((w) => w.wave === wave);
    const size = listed?.size ?? planned[index] ?? 0;
    const counts = groupCounts(listed?.counts ?? {});
    const status = !listed?.started_at ? 'waiting' : listed.finished_at ? 'finished' : 'running';
    const segments = STATE_GROUPS.filter((group) => counts[group] > 0).map((group) => ({
      group,
      count: counts[group],
      pct: percentOf(counts[group], size),
    }));
    return { wave, size, status, counts, segments };
  });
}

/** How far a rollout is: the share of its devices in a final state. */
export function rolloutDonePct(rollout: { total: number; counts: StateCounts }): number {
  const counts = groupCounts(rollout.counts);
  return percentOf(counts.success + counts.failed + counts.left_out, rollout.total);
}
