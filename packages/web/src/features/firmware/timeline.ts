import { groupCounts, STATE_GROUPS, type StateCounts, type StateGroup } from './format.ts';

/** The rollout's devices per state group at one moment. */
export type StateSample = { at: number; counts: Record<StateGroup, number> };

/** Enough for an hour at one reading every two seconds; older readings give way. */
export const MAX_SAMPLES = 1800;

const sameCounts = (a: StateSample, b: StateSample) => STATE_GROUPS.every((g) => a.counts[g] === b.counts[g]);

/**
 * The API gives a rollout's counts now, not their history: the chart of states over time is drawn
 * from the readings this page takes. A reading equal to the two before it only moves the last
 * point to its time, so a quiet hour is one flat step, not 1,800 points.
 */
export function addSample(
  samples: readonly StateSample[],
  counts: StateCounts,
  at: number,
): readonly StateSample[] {
  const sample = { at, counts: groupCounts(counts) };
  const last = samples.at(-1);
  const beforeLast = samples.at(-2);
  if (last && at <= last.at) return samples;
  if (last && beforeLast && sameCounts(last, sample) && sameCounts(beforeLast, sample))
    return [...samples.slice(0, -1), sample];
  return [...samples, sample].slice(-MAX_SAMPLES);
}
