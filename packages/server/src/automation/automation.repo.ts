import type { DetectionState, OpeningHours, VolumeUnit, ZoneProfile } from '@flowbox/shared';
import { and, asc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { crossingToJson, EMPTY_DETECTION } from '@flowbox/shared';
import { arrayLiteral, quotedArrayLiteral } from '../db/arrays.ts';
import type { Db } from '../db/client.ts';
import { buildings, zoneAutomation, zones } from '../db/schema.ts';
import { withZoneScope, withZoneScopeOf, zoneAt, zoneScopeColumns, type FlowboxScope } from '../db/scope.ts';
import type { ZonePath } from '../http/params.ts';

export type AutomationRow = typeof zoneAutomation.$inferSelect;

/** A zone's automation row with what detection needs to know of the zone and its building. */
export type ZoneAutomation = {
  automation: AutomationRow;
  zone: {
    name: string;
    profile: ZoneProfile;
    openingHours: OpeningHours | null;
    leakDetectionMode: boolean;
    maintenanceMode: boolean;
  };
  building: { openingHours: OpeningHours | null; timezone: string; volumeUnit: VolumeUnit };
  scope: FlowboxScope;
};

const columns = {
  automation: zoneAutomation,
  zone: {
    name: zones.name,
    profile: zones.profile,
    openingHours: zones.openingHours,
    leakDetectionMode: zones.leakDetectionMode,
    maintenanceMode: zones.maintenanceMode,
  },
  building: {
    openingHours: buildings.openingHours,
    timezone: buildings.timezone,
    volumeUnit: buildings.volumeUnit,
  },
  scope: zoneScopeColumns,
};

function selectAutomation(db: Db) {
  return withZoneScopeOf(db.select(columns).from(zoneAutomation), zoneAutomation.zoneId);
}

/** Creates the zones' rows when missing (defaults: automatic closing off, nothing detected yet). */
export async function ensureAutomationRows(db: Db, zoneIds: readonly string[]): Promise<void> {
  if (zoneIds.length === 0) return;
  await db
    .insert(zoneAutomation)
    .values(zoneIds.map((zoneId) => ({ zoneId })))
    .onConflictDoNothing();
}

/**
 * The zones' rows (`missing` ones created first), locked for this transaction (FOR UPDATE, in zone id order so that two batches
 * never wait on each other in a cycle): two instances ingesting the same zone take turns.
 */
export async function lockAutomationRows(
  db: Db,
  zoneIds: readonly string[],
  missing: readonly string[] = zoneIds,
): Promise<ZoneAutomation[]> {
  await ensureAutomationRows(db, missing);
  return selectAutomation(db)
    .where(inArray(zoneAutomation.zoneId, [...zoneIds]))
    .orderBy(asc(zoneAutomation.zoneId))
    .for('update', { of: zoneAutomation });
}

/** A zone's automation as stored, or the defaults of a zone that never had any (reads write nothing). */
export async function findAutomation(db: Db, zoneId: string): Promise<ZoneAutomation | undefined> {
  const [row] = await withZoneScope(db.select({ ...columns, automation: zoneAutomation }).from(zones))
    .leftJoin(zoneAutomation, eq(zoneAutomation.zoneId, zones.id))
    .where(eq(zones.id, zoneId));
  if (!row) return undefined;
  return { ...row, automation: row.automation ?? defaultAutomation(zoneId) };
}

function defaultAutomation(zoneId: string): AutomationRow {
  return {
    zoneId,
    automaticClosingEnabled: false,
    volumeMarginEnabled: false,
    volumeMargin: null,
    volumeMarginUnit: null,
    durationMarginEnabled: false,
    durationMarginMinutes: null,
    ...EMPTY_DETECTION,
    eventCrossing: null,
    lockedAt: null,
    lockedBy: null,
    closeConfirmedAt: null,
    closeDysfunctionRaised: false,
    updatedAt: new Date(0),
  };
}

export async function updateAutomation(
  db: Db,
  zoneId: string,
  patch: Partial<typeof zoneAutomation.$inferInsert>,
  now: Date,
): Promise<AutomationRow> {
  const [row] = await db
    .update(zoneAutomation)
    .set({ ...patch, updatedAt: now })
    .where(eq(zoneAutomation.zoneId, zoneId))
    .returning();
  return row!;
}

/**
 * The detection state of every zone of one telemetry batch, in one statement: one UPDATE per zone
 * was most of a batch's round trips and of ingest's CPU (docs/performance.md "Ingest"). The rows
 * are locked already (`lockAutomationRows`).
 */
export async function updateDetectionStates(
  db: Db,
  states: readonly { zoneId: string; state: DetectionState }[],
  now: Date,
): Promise<void> {
  if (states.length === 0) return;
  const column = <T>(pick: (state: DetectionState) => T) => states.map(({ state }) => pick(state));
  const instants = (pick: (state: DetectionState) => Date | null) =>
    arrayLiteral(column((state) => pick(state)?.toISOString() ?? null));
  await db.execute(sql`UPDATE zone_automation AS a SET
      event_started_at = v.event_started_at,
      last_flow_at = v.last_flow_at,
      last_flow_flowbox_id = v.last_flow_flowbox_id,
      last_flow_seq = v.last_flow_seq,
      last_flow_free_seq = v.last_flow_free_seq,
      flow_free_ahead = v.flow_free_ahead,
      last_flow_device_at = v.last_flow_device_at,
      last_flow_live = v.last_flow_live,
      event_crossing = v.event_crossing,
      event_volume_ml = v.event_volume_ml,
      event_flow_s = v.event_flow_s,
      event_triggered = v.event_triggered,
      event_leak_raised = v.event_leak_raised,
      last_measured_at = v.last_measured_at,
      detection_blocked_until = v.detection_blocked_until,
      updated_at = ${now.toISOString()}::timestamptz
    FROM unnest(
      ${arrayLiteral(states.map((s) => s.zoneId))}::uuid[],
      ${instants((s) => s.eventStartedAt)}::timestamptz[],
      ${instants((s) => s.lastFlowAt)}::timestamptz[],
      ${arrayLiteral(column((s) => s.lastFlowFlowboxId))}::uuid[],
      ${arrayLiteral(column((s) => s.lastFlowSeq))}::bigint[],
      ${arrayLiteral(column((s) => s.lastFlowFreeSeq))}::bigint[],
      ${quotedArrayLiteral(column((s) => JSON.stringify(s.flowFreeAhead)))}::jsonb[],
      ${instants((s) => s.lastFlowDeviceAt)}::timestamptz[],
      ${arrayLiteral(column((s) => s.lastFlowLive))}::boolean[],
      ${quotedArrayLiteral(column((s) => (s.eventCrossing ? JSON.stringify(crossingToJson(s.eventCrossing)) : null)))}::jsonb[],
      ${arrayLiteral(column((s) => s.eventVolumeMl))}::bigint[],
      ${arrayLiteral(column((s) => s.eventFlowS))}::int[],
      ${arrayLiteral(column((s) => s.eventTriggered))}::boolean[],
      ${arrayLiteral(column((s) => s.eventLeakRaised))}::boolean[],
      ${instants((s) => s.lastMeasuredAt)}::timestamptz[],
      ${instants((s) => s.detectionBlockedUntil)}::timestamptz[]
    ) AS v(zone_id, event_started_at, last_flow_at, last_flow_flowbox_id, last_flow_seq, last_flow_free_seq, flow_free_ahead,
      last_flow_device_at, last_flow_live, event_crossing, event_volume_ml, event_flow_s, event_triggered,
      event_leak_raised, last_measured_at, detection_blocked_until)
    WHERE a.zone_id = v.zone_id`);
}

/**
 * spec §4: a zone whose automatic closing triggered stays locked until a user exits by typing its
 * name. The one reading of the lock by zone id: a scheduled opening never opens a locked zone, and
 * the schedules of a locked zone may not be changed.
 */
export async function isZoneLocked(db: Db, zoneId: string): Promise<boolean> {
  const [row] = await db
    .select({ lockedAt: zoneAutomation.lockedAt })
    .from(zoneAutomation)
    .where(eq(zoneAutomation.zoneId, zoneId));
  return Boolean(row?.lockedAt);
}

/** The same reading by hierarchy path, for HTTP (lock.ts): a zone under another path is not locked there. */
export async function isZoneLockedAt(db: Db, path: ZonePath): Promise<boolean> {
  const [row] = await withZoneScopeOf(
    db.select({ zoneId: zoneAutomation.zoneId }).from(zoneAutomation),
    zoneAutomation.zoneId,
  ).where(and(isNotNull(zoneAutomation.lockedAt), zoneAt(path)));
  return row !== undefined;
}

/**
 * Locked zones whose safety close the device has not confirmed yet, claimed for one pass of the
 * supervision job (SKIP LOCKED: with several instances each zone is looked at by one).
 */
export async function claimUnconfirmedLocks(db: Db, limit: number): Promise<ZoneAutomation[]> {
  return selectAutomation(db)
    .where(and(isNotNull(zoneAutomation.lockedAt), isNull(zoneAutomation.closeConfirmedAt)))
    .orderBy(asc(zoneAutomation.lockedAt))
    .limit(limit)
    .for('update', { of: zoneAutomation, skipLocked: true });
}
