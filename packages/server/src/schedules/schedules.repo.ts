import { and, asc, eq, gt, gte, isNull, lte, ne } from 'drizzle-orm';
import type { Schedule, ScheduleValues } from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import { withZoneScope, withZoneScopeOf, zoneAt } from '../db/scope.ts';
import { buildings, schedules, scheduleRuns, sites, zones } from '../db/schema.ts';
import type { ZonePath } from '../http/params.ts';
import { wallClockMinutes } from './occurrences.ts';

export type ScheduleRow = typeof schedules.$inferSelect;
export type ScheduleRunRow = typeof scheduleRuns.$inferSelect;

/** A zone with what its schedules need: its place in the hierarchy and its building's time zone. */
export type ScheduleZone = {
  id: string;
  name: string;
  scheduledClosingAuthorised: boolean;
  timezone: string;
  path: ZonePath;
};

const zoneColumns = {
  id: zones.id,
  name: zones.name,
  scheduledClosingAuthorised: zones.scheduledClosingAuthorised,
  timezone: buildings.timezone,
  customerId: sites.customerId,
  siteId: buildings.siteId,
  buildingId: zones.buildingId,
};
type ZoneColumnsRow = {
  [K in keyof typeof zoneColumns]: K extends 'scheduledClosingAuthorised' ? boolean : string;
};

function toScheduleZone(row: ZoneColumnsRow): ScheduleZone {
  return {
    id: row.id,
    name: row.name,
    scheduledClosingAuthorised: row.scheduledClosingAuthorised,
    timezone: row.timezone,
    path: { customerId: row.customerId, siteId: row.siteId, buildingId: row.buildingId, zoneId: row.id },
  };
}

/** The zone at that place in the hierarchy: under another building, site or customer it is not found. */
export async function findScheduleZone(db: Db, path: ZonePath): Promise<ScheduleZone | undefined> {
  const [row] = await withZoneScope(db.select(zoneColumns).from(zones)).where(zoneAt(path));
  return row ? toScheduleZone(row) : undefined;
}

export async function listSchedules(db: Db, zoneId: string): Promise<ScheduleRow[]> {
  return db
    .select()
    .from(schedules)
    .where(eq(schedules.zoneId, zoneId))
    .orderBy(asc(schedules.dateStart), asc(schedules.label), asc(schedules.id));
}

export async function findSchedule(db: Db, zoneId: string, id: string): Promise<ScheduleRow | undefined> {
  const [row] = await db
    .select()
    .from(schedules)
    .where(and(eq(schedules.id, id), eq(schedules.zoneId, zoneId)));
  return row;
}

export async function insertSchedule(db: Db, zoneId: string, values: ScheduleValues): Promise<ScheduleRow> {
  const [row] = await db
    .insert(schedules)
    .values({ zoneId, ...columnsOf(values) })
    .returning();
  return row!;
}

export async function updateSchedule(
  db: Db,
  id: string,
  values: ScheduleValues,
  at: Date,
): Promise<ScheduleRow> {
  const [row] = await db
    .update(schedules)
    .set({ ...columnsOf(values), updatedAt: at })
    .where(eq(schedules.id, id))
    .returning();
  return row!;
}

export async function deleteSchedule(db: Db, id: string): Promise<void> {
  await db.delete(schedules).where(eq(schedules.id, id));
}

function columnsOf(values: ScheduleValues) {
  return {
    label: values.label,
    dateStart: values.date_start,
    dateEnd: values.date_end,
    closingTime: values.closing_time,
    openingTime: values.opening_time,
    recurring: values.recurring,
    frequency: values.frequency,
    interval: values.interval,
    weekdays: values.weekdays,
  };
}

/** A stored schedule in the shape the rules and the API speak. */
export function valuesOf(row: ScheduleRow): ScheduleValues {
  return {
    label: row.label,
    date_start: row.dateStart,
    date_end: row.dateEnd,
    closing_time: row.closingTime,
    opening_time: row.openingTime,
    recurring: row.recurring,
    frequency: row.frequency,
    interval: row.interval,
    weekdays: row.weekdays,
  };
}

export function toApiSchedule(row: ScheduleRow, timezone: string): Schedule {
  const values = valuesOf(row);
  return {
    id: row.id,
    zone_id: row.zoneId,
    ...values,
    duration_minutes: wallClockMinutes(values),
    timezone,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * Schedules of authorised zones that may have a window running around `at`: recurring windows last
 * under a day, and local dates differ from UTC ones by at most 14 hours, so two days either side
 * is a safe net; the exact test is done on the computed windows.
 */
export async function schedulesAround(
  db: Db,
  at: Date,
): Promise<{ schedule: ScheduleRow; zone: ScheduleZone }[]> {
  const day = (offsetDays: number) =>
    new Date(at.getTime() + offsetDays * 86_400_000).toISOString().slice(0, 10);
  const rows = await withZoneScopeOf(
    db.select({ schedule: schedules, zone: zoneColumns }).from(schedules),
    schedules.zoneId,
  ).where(
    and(
      eq(zones.scheduledClosingAuthorised, true),
      lte(schedules.dateStart, day(2)),
      gte(schedules.dateEnd, day(-2)),
    ),
  );
  return rows.map((row) => ({ schedule: row.schedule, zone: toScheduleZone(row.zone) }));
}

/**
 * Claims one window's closing: true for exactly one caller across instances and restarts (the
 * unique (schedule, occurrence start) key; a concurrent insert waits for the first to commit).
 */
export async function claimClosing(
  db: Db,
  values: Omit<typeof scheduleRuns.$inferInsert, 'id' | 'openedAt' | 'openOutcome'>,
): Promise<ScheduleRunRow | undefined> {
  const [row] = await db
    .insert(scheduleRuns)
    .values(values)
    .onConflictDoNothing({ target: [scheduleRuns.scheduleId, scheduleRuns.occurrenceStart] })
    .returning();
  return row;
}

export async function setCloseCommands(db: Db, runId: string, count: number): Promise<void> {
  await db.update(scheduleRuns).set({ closeCommands: count }).where(eq(scheduleRuns.id, runId));
}

/** Windows over whose opening is due, locked for this pass; rows another instance holds are skipped. */
export async function claimDueOpenings(db: Db, at: Date, limit: number): Promise<ScheduleRunRow[]> {
  return db
    .select()
    .from(scheduleRuns)
    .where(and(isNull(scheduleRuns.openedAt), lte(scheduleRuns.occurrenceEnd, at)))
    .orderBy(asc(scheduleRuns.occurrenceEnd))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/** Another window of the zone closed and still running at `at` (its valve must stay closed). */
export async function otherWindowRunning(db: Db, run: ScheduleRunRow, at: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: scheduleRuns.id })
    .from(scheduleRuns)
    .where(
      and(
        eq(scheduleRuns.zoneId, run.zoneId),
        ne(scheduleRuns.id, run.id),
        isNull(scheduleRuns.openedAt),
        lte(scheduleRuns.occurrenceStart, at),
        gt(scheduleRuns.occurrenceEnd, at),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function markOpened(
  db: Db,
  runId: string,
  at: Date,
  outcome: NonNullable<ScheduleRunRow['openOutcome']>,
): Promise<void> {
  await db.update(scheduleRuns).set({ openedAt: at, openOutcome: outcome }).where(eq(scheduleRuns.id, runId));
}

export async function findZoneById(db: Db, zoneId: string): Promise<ScheduleZone | undefined> {
  const [row] = await withZoneScope(db.select(zoneColumns).from(zones)).where(eq(zones.id, zoneId));
  return row ? toScheduleZone(row) : undefined;
}
