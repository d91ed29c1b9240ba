import type { DetectionState, OpeningHours, VolumeUnit, ZoneProfile } from '@flowbox/shared';
import { and, asc, eq, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import { crossingToJson, EMPTY_DETECTION, heldDueAt } from '@flowbox/shared';
import { arrayLiteral, quotedArrayLiteral } from '../db/arrays.ts';
import type { Db } from '../db/client.ts';
import { buildings, zoneAutomation, zones } from '../db/schema.ts';
import {
  joinUpSql,
  withZoneScope,
  withZoneScopeOf,
  zoneAt,
  zoneScopeColumns,
  type FlowboxScope,
} from '../db/scope.ts';
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
 * Zones whose oldest held reading has waited its time (docs/automation.md "Whatever the delivery"),
 * at most `limit`, the longest waiting first: the sweep judges them with no new reading.
 */
export async function dueHeldZones(db: Db, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .select({ zoneId: zoneAutomation.zoneId })
    .from(zoneAutomation)
    .where(and(isNotNull(zoneAutomation.heldUntil), lte(zoneAutomation.heldUntil, now)))
    .orderBy(asc(zoneAutomation.heldUntil))
    .limit(limit);
  return rows.map((r) => r.zoneId);
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
  // Every telemetry batch locks its zones' rows: plain SQL, the ids as one array parameter, and the
  // rows mapped here as the query builder maps them (its select and mapping of ~40 columns a zone
  // were a tenth of a batch's work on the server, docs/performance.md "Ingest").
  const found = await db.execute(sql`SELECT a.zone_id, a.automatic_closing_enabled, a.volume_margin_enabled,
      a.volume_margin::text AS volume_margin, a.volume_margin_unit, a.duration_margin_enabled,
      a.duration_margin_minutes, a.event_started_at, a.last_flow_at, a.last_flow_flowbox_id, a.last_flow_seq,
      a.last_flow_device_at, a.last_flow_live, a.event_volume_ml,
      a.event_flow_s, a.event_crossing, a.event_triggered, a.event_leak_raised, a.last_measured_at,
      a.detection_blocked_until, a.seqs, a.held, a.held_until, a.locked_at, a.locked_by, a.close_confirmed_at, a.close_dysfunction_raised,
      a.away_from, a.away_until, a.away_close_on_flow, a.away_set_by_name, a.away_set_at, a.away_closed_at,
      a.updated_at, z.name AS zone_name, z.profile AS zone_profile, z.opening_hours AS zone_opening_hours,
      z.leak_detection_mode AS zone_leak_detection_mode, z.maintenance_mode AS zone_maintenance_mode,
      b.opening_hours AS building_opening_hours, b.timezone AS building_timezone,
      b.volume_unit AS building_volume_unit, s.customer_id, b.site_id, z.building_id
    FROM zone_automation a
    JOIN zones z ON z.id = a.zone_id ${joinUpSql('zone', 'site')}
    WHERE a.zone_id = ANY(${arrayLiteral(zoneIds)}::uuid[])
    ORDER BY a.zone_id
    FOR UPDATE OF a`);
  return (found as unknown as { rows: LockedRow[] }).rows.map(zoneAutomationOf);
}

/** A row of `lockAutomationRows`, as either driver answers it. */
type LockedRow = {
  zone_id: string;
  automatic_closing_enabled: boolean;
  volume_margin_enabled: boolean;
  volume_margin: string | null;
  volume_margin_unit: VolumeUnit | null;
  duration_margin_enabled: boolean;
  duration_margin_minutes: number | string | null;
  event_started_at: Instant;
  last_flow_at: Instant;
  last_flow_flowbox_id: string | null;
  last_flow_seq: Whole;
  last_flow_device_at: Instant;
  last_flow_live: boolean;
  event_volume_ml: number | string | bigint;
  event_flow_s: number | string;
  event_crossing: Json<AutomationRow['eventCrossing']> | null;
  event_triggered: boolean;
  event_leak_raised: boolean;
  last_measured_at: Instant;
  detection_blocked_until: Instant;
  seqs: Json<AutomationRow['seqs']>;
  held: Json<AutomationRow['held']>;
  held_until: Instant;
  locked_at: Instant;
  locked_by: AutomationRow['lockedBy'];
  close_confirmed_at: Instant;
  close_dysfunction_raised: boolean;
  away_from: Instant;
  away_until: Instant;
  away_close_on_flow: boolean;
  away_set_by_name: string | null;
  away_set_at: Instant;
  away_closed_at: Instant;
  updated_at: string | Date;
  zone_name: string;
  zone_profile: ZoneProfile;
  zone_opening_hours: Json<OpeningHours> | null;
  zone_leak_detection_mode: boolean;
  zone_maintenance_mode: boolean;
  building_opening_hours: Json<OpeningHours> | null;
  building_timezone: string;
  building_volume_unit: VolumeUnit;
  customer_id: string;
  site_id: string;
  building_id: string;
};
type Instant = string | Date | null;
type Whole = number | string | bigint | null;
/** A json(b) value: parsed by the driver, or its text. */
type Json<T> = T | string;

// The query builder's own conversions (timestamp, bigint "number" mode, integer, jsonb), so a row
// read here is the row `selectAutomation` reads.
const instant = (v: Instant): Date | null => (v === null ? null : new Date(v));
const whole = (v: Whole): number | null => (v === null ? null : Number(v));
const json = <T>(v: Json<T>): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

function zoneAutomationOf(r: LockedRow): ZoneAutomation {
  return {
    automation: {
      zoneId: r.zone_id,
      automaticClosingEnabled: r.automatic_closing_enabled,
      volumeMarginEnabled: r.volume_margin_enabled,
      volumeMargin: r.volume_margin,
      volumeMarginUnit: r.volume_margin_unit,
      durationMarginEnabled: r.duration_margin_enabled,
      durationMarginMinutes: whole(r.duration_margin_minutes),
      eventStartedAt: instant(r.event_started_at),
      lastFlowAt: instant(r.last_flow_at),
      lastFlowFlowboxId: r.last_flow_flowbox_id,
      lastFlowSeq: whole(r.last_flow_seq),
      lastFlowDeviceAt: instant(r.last_flow_device_at),
      lastFlowLive: r.last_flow_live,
      eventVolumeMl: Number(r.event_volume_ml),
      eventFlowS: Number(r.event_flow_s),
      eventCrossing: r.event_crossing === null ? null : json(r.event_crossing),
      eventTriggered: r.event_triggered,
      eventLeakRaised: r.event_leak_raised,
      lastMeasuredAt: instant(r.last_measured_at),
      detectionBlockedUntil: instant(r.detection_blocked_until),
      seqs: json(r.seqs),
      held: json(r.held),
      heldUntil: instant(r.held_until),
      lockedAt: instant(r.locked_at),
      lockedBy: r.locked_by,
      closeConfirmedAt: instant(r.close_confirmed_at),
      closeDysfunctionRaised: r.close_dysfunction_raised,
      awayFrom: instant(r.away_from),
      awayUntil: instant(r.away_until),
      awayCloseOnFlow: r.away_close_on_flow,
      awaySetByName: r.away_set_by_name,
      awaySetAt: instant(r.away_set_at),
      awayClosedAt: instant(r.away_closed_at),
      updatedAt: new Date(r.updated_at),
    },
    zone: {
      name: r.zone_name,
      profile: r.zone_profile,
      openingHours: r.zone_opening_hours === null ? null : json(r.zone_opening_hours),
      leakDetectionMode: r.zone_leak_detection_mode,
      maintenanceMode: r.zone_maintenance_mode,
    },
    building: {
      openingHours: r.building_opening_hours === null ? null : json(r.building_opening_hours),
      timezone: r.building_timezone,
      volumeUnit: r.building_volume_unit,
    },
    scope: { customerId: r.customer_id, siteId: r.site_id, buildingId: r.building_id, zoneId: r.zone_id },
  };
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
    seqs: {},
    held: [],
    heldUntil: null,
    eventCrossing: null,
    lockedAt: null,
    lockedBy: null,
    closeConfirmedAt: null,
    closeDysfunctionRaised: false,
    awayFrom: null,
    awayUntil: null,
    awayCloseOnFlow: false,
    awaySetByName: null,
    awaySetAt: null,
    awayClosedAt: null,
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
      last_flow_device_at = v.last_flow_device_at,
      last_flow_live = v.last_flow_live,
      event_crossing = v.event_crossing,
      event_volume_ml = v.event_volume_ml,
      event_flow_s = v.event_flow_s,
      event_triggered = v.event_triggered,
      event_leak_raised = v.event_leak_raised,
      last_measured_at = v.last_measured_at,
      detection_blocked_until = v.detection_blocked_until,
      seqs = v.seqs,
      held = v.held,
      held_until = v.held_until,
      updated_at = ${now.toISOString()}::timestamptz
    FROM unnest(
      ${arrayLiteral(states.map((s) => s.zoneId))}::uuid[],
      ${instants((s) => s.eventStartedAt)}::timestamptz[],
      ${instants((s) => s.lastFlowAt)}::timestamptz[],
      ${arrayLiteral(column((s) => s.lastFlowFlowboxId))}::uuid[],
      ${arrayLiteral(column((s) => s.lastFlowSeq))}::bigint[],
      ${instants((s) => s.lastFlowDeviceAt)}::timestamptz[],
      ${arrayLiteral(column((s) => s.lastFlowLive))}::boolean[],
      ${quotedArrayLiteral(column((s) => (s.eventCrossing ? JSON.stringify(crossingToJson(s.eventCrossing)) : null)))}::jsonb[],
      ${arrayLiteral(column((s) => s.eventVolumeMl))}::bigint[],
      ${arrayLiteral(column((s) => s.eventFlowS))}::int[],
      ${arrayLiteral(column((s) => s.eventTriggered))}::boolean[],
      ${arrayLiteral(column((s) => s.eventLeakRaised))}::boolean[],
      ${instants((s) => s.lastMeasuredAt)}::timestamptz[],
      ${instants((s) => s.detectionBlockedUntil)}::timestamptz[],
      ${quotedArrayLiteral(column((s) => JSON.stringify(s.seqs)))}::jsonb[],
      ${quotedArrayLiteral(column((s) => JSON.stringify(s.held)))}::jsonb[],
      ${instants(heldDueAt)}::timestamptz[]
    ) AS v(zone_id, event_started_at, last_flow_at, last_flow_flowbox_id, last_flow_seq,
      last_flow_device_at, last_flow_live, event_crossing, event_volume_ml, event_flow_s, event_triggered,
      event_leak_raised, last_measured_at, detection_blocked_until, seqs, held, held_until)
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
