import {
  DURATION_MARGIN_BOUNDS,
  VOLUME_MARGIN_BOUNDS,
  type Automation,
  type VolumeUnit,
} from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import type { LocatedFlowbox } from '../db/scope.ts';
import { notFound } from '../errors.ts';
import { listFlowboxes } from '../flowboxes/index.ts';
import type { ZonePath } from '../http/params.ts';
import { notifyLive } from '../live/index.ts';
import { findZoneRow } from '../zones/index.ts';
import { findAutomation, type AutomationRow, type ZoneAutomation } from './automation.repo.ts';
import { litresPer } from './detection-state.ts';

/** The zone's automation at `path`, or 404 when the zone is not there. */
export async function findZoneAutomation(db: Db, path: ZonePath): Promise<ZoneAutomation> {
  if (!(await findZoneRow(db, path))) throw notFound();
  const found = await findAutomation(db, path.zoneId);
  if (!found) throw notFound();
  return found;
}

/** Pushes the zone's automation on the live channel (docs/automation.md "Live updates"). */
export async function publishAutomation(db: Db, found: ZoneAutomation): Promise<Automation> {
  const automation = toApiAutomation(found);
  await notifyLive(db, {
    type: 'automation',
    automation,
    customer_id: found.scope.customerId,
    site_id: found.scope.siteId,
    zone_id: found.scope.zoneId,
  });
  return automation;
}

/** The zone's paired flowboxes: the ones a safety close goes to. */
export async function readyFlowboxes(db: Db, found: ZoneAutomation): Promise<LocatedFlowbox[]> {
  return (await listFlowboxes(db, found.scope)).filter((f) => f.flowbox.pairingState === 'ready');
}

/** The volume margin in the building's unit today (it may have been entered in another). */
function displayedVolume(row: AutomationRow, unit: VolumeUnit): number | null {
  if (row.volumeMargin === null) return null;
  const from = row.volumeMarginUnit ?? unit;
  const value = (Number(row.volumeMargin) * litresPer(from)) / litresPer(unit);
  return Math.round(value * 10_000) / 10_000;
}

export function toApiAutomation(found: ZoneAutomation): Automation {
  const row = found.automation;
  const unit = found.building.volumeUnit;
  return {
    zone_id: row.zoneId,
    automatic_closing_enabled: row.automaticClosingEnabled,
    volume_margin_enabled: row.volumeMarginEnabled,
    volume_margin: displayedVolume(row, unit),
    duration_margin_enabled: row.durationMarginEnabled,
    duration_margin_minutes: row.durationMarginMinutes,
    volume_unit: unit,
    volume_margin_bounds: VOLUME_MARGIN_BOUNDS[unit],
    duration_margin_bounds: { ...DURATION_MARGIN_BOUNDS },
    locked: row.lockedAt !== null,
    locked_at: row.lockedAt?.toISOString() ?? null,
    locked_by: row.lockedBy,
    close_confirmed_at: row.closeConfirmedAt?.toISOString() ?? null,
    detection_blocked_until: row.detectionBlockedUntil?.toISOString() ?? null,
    event: row.eventStartedAt
      ? {
          started_at: row.eventStartedAt.toISOString(),
          last_flow_at: (row.lastFlowAt ?? row.eventStartedAt).toISOString(),
          volume_l: row.eventVolumeMl / 1000,
          flow_minutes: Math.round(row.eventFlowS / 6) / 10,
        }
      : null,
  };
}
