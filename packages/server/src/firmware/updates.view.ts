import type { FirmwareUpdate } from '@flowbox/shared';
import type { PlacedUpdate, StepRow } from './updates.repo.ts';

/** An update as the API shows it, with its history when given. */
export function toApiUpdate({ update: u, serial, scope }: PlacedUpdate, steps: StepRow[]): FirmwareUpdate {
  return {
    ...toApiUpdateSummary({ update: u, serial, scope }),
    steps: steps.map((s) => ({
      state: s.state,
      at: s.at.toISOString(),
      progress_pct: s.progressPct,
      reason: s.reason,
    })),
  };
}

export function toApiUpdateSummary({
  update: u,
  serial,
  scope,
}: PlacedUpdate): Omit<FirmwareUpdate, 'steps'> {
  return {
    id: u.id,
    flowbox_id: u.flowboxId,
    serial,
    customer_id: scope.customerId,
    site_id: scope.siteId,
    building_id: scope.buildingId,
    zone_id: scope.zoneId,
    image_id: u.imageId,
    rollout_id: u.rolloutId,
    wave: u.wave,
    from_version: u.fromVersion,
    target_version: u.targetVersion,
    state: u.state,
    reason: u.reason,
    progress_pct: u.progressPct,
    start_after: u.startAfter?.toISOString() ?? null,
    created_at: u.createdAt.toISOString(),
    state_changed_at: u.stateChangedAt.toISOString(),
    finished_at: u.finishedAt?.toISOString() ?? null,
    requested_by_name: u.requestedByName,
  };
}
