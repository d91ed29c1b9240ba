import {
  FIRMWARE_STATE_GROUPS,
  firmwareStateGroup,
  type FirmwareStateGroup,
  type FirmwareUpdateState,
  type RolloutTimeline,
} from '@flowbox/shared';

/** One step of one of the rollout's updates, as stored (firmware_update_steps), oldest first. */
export type TimelineStep = { updateId: string; state: FirmwareUpdateState; at: Date };

type Point = { at: number; counts: number[] };

const INDEX = Object.fromEntries(FIRMWARE_STATE_GROUPS.map((g, i) => [g, i])) as Record<
  FirmwareStateGroup,
  number
>;

/**
 * A rollout's devices per state group over its whole life (docs/firmware.md "Rollout page"),
 * replayed from its updates' steps (ordered by time): each update counts in the group of its last
 * step so far. Steps at one instant make one point; a step that leaves the counts as they were
 * (requested → started: both on their way) makes none. More than `maxPoints` changes are thinned
 * to the last of each of `maxPoints` equal time slices (the first point kept), so the answer stays
 * small for a rollout of thousands. `end`, when given (a rollout's end, or now for one not over),
 * adds a last point with the counts as they are, so the last state shows how long it lasted. Work: one pass over the steps, bounded by the rollout's size.
 */
export function rolloutTimeline(
  steps: readonly TimelineStep[],
  maxPoints: number,
  end: Date | null,
): RolloutTimeline {
  const groupOf = new Map<string, number>();
  const counts = FIRMWARE_STATE_GROUPS.map(() => 0);
  const points: Point[] = [];
  for (const step of steps) {
    const group = INDEX[firmwareStateGroup(step.state)];
    const before = groupOf.get(step.updateId);
    if (before === group) continue;
    if (before !== undefined) counts[before]! -= 1;
    counts[group]! += 1;
    groupOf.set(step.updateId, group);
    const at = step.at.getTime();
    const last = points.at(-1);
    if (last && last.at === at) last.counts = [...counts];
    else points.push({ at, counts: [...counts] });
  }
  const thinned = thin(points, maxPoints);
  const lastAt = thinned.at(-1)?.at;
  if (end && lastAt !== undefined && end.getTime() > lastAt) thinned.push({ at: end.getTime(), counts });
  return {
    groups: [...FIRMWARE_STATE_GROUPS],
    points: thinned.map((p) => ({ at: new Date(p.at).toISOString(), counts: p.counts })),
  };
}

/** The first point, then the last point of each of `max - 1` equal slices of the time after it. */
function thin(points: Point[], max: number): Point[] {
  if (points.length <= max) return points;
  const first = points[0]!;
  const span = points.at(-1)!.at - first.at;
  const slices = Math.max(1, max - 1);
  const kept: Point[] = [first];
  let slice = -1;
  for (const point of points.slice(1)) {
    const index = Math.min(slices - 1, Math.floor(((point.at - first.at) / span) * slices));
    if (index === slice) kept[kept.length - 1] = point;
    else {
      kept.push(point);
      slice = index;
    }
  }
  return kept;
}
