import type { HourFigure, Language, ReportFormat, ReportFrequency, Role } from '@flowbox/shared';
import {
  and,
  asc,
  desc,
  eq,
  gte,
  inArray,
  isNull,
  lt,
  lte,
  notInArray,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  consumptionHourly,
  customers,
  reports,
  reportSchedules,
  sites,
  users,
  userSites,
  zones,
} from '../db/schema.ts';

/** A customer's reports (siteId null) or a site's. */
export type ReportScope = { customerId: string; siteId: string | null };

export type ScheduleRow = typeof reportSchedules.$inferSelect;
export type ReportListRow = Omit<typeof reports.$inferSelect, 'csv' | 'pdf'> & {
  scheduleName: string | null;
  hasCsv: boolean;
  hasPdf: boolean;
};

const inScope = (table: typeof reports | typeof reportSchedules, scope: ReportScope): SQL =>
  and(
    eq(table.customerId, scope.customerId),
    scope.siteId === null ? isNull(table.siteId) : eq(table.siteId, scope.siteId),
  )!;

/** The names a report prints, or undefined when the site is not the customer's (or either is gone). */
export async function scopeNames(
  db: Db,
  scope: ReportScope,
): Promise<{ customerName: string; siteName: string | null } | undefined> {
  const [customer] = await db
    .select({ name: customers.name })
    .from(customers)
    .where(eq(customers.id, scope.customerId));
  if (!customer) return undefined;
  if (scope.siteId === null) return { customerName: customer.name, siteName: null };
  const [site] = await db
    .select({ name: sites.name })
    .from(sites)
    .where(and(eq(sites.id, scope.siteId), eq(sites.customerId, scope.customerId)));
  return site && { customerName: customer.name, siteName: site.name };
}

/** A user who may be named a recipient: of the customer, in one of `roles`, with the sites it is given. */
export type ReceiverRow = {
  id: string;
  firstname: string;
  lastname: string;
  email: string;
  language: Language;
  role: Role;
  customerId: string | null;
  siteIds: string[];
};

/** The customer's users of `roles` (all, or those of `ids`), by name, with their sites. */
export async function receiversOf(
  db: Db,
  customerId: string,
  roles: readonly Role[],
  ids?: readonly string[],
): Promise<ReceiverRow[]> {
  if (ids?.length === 0) return [];
  const conditions = [eq(users.customerId, customerId), inArray(users.role, [...roles])];
  if (ids) conditions.push(inArray(users.id, [...ids]));
  const rows = await db
    .select({
      id: users.id,
      firstname: users.firstname,
      lastname: users.lastname,
      email: users.email,
      language: users.language,
      role: users.role,
      customerId: users.customerId,
    })
    .from(users)
    .where(and(...conditions))
    .orderBy(asc(users.lastname), asc(users.firstname), asc(users.id))
    .limit(1000);
  if (rows.length === 0) return [];
  const assigned = await db
    .select({ userId: userSites.userId, siteId: userSites.siteId })
    .from(userSites)
    .where(
      inArray(
        userSites.userId,
        rows.map((r) => r.id),
      ),
    );
  return rows.map((r) => ({
    ...r,
    siteIds: assigned.filter((a) => a.userId === r.id).map((a) => a.siteId),
  }));
}

export type ScheduleValues = {
  name: string;
  frequency: ReportFrequency;
  formats: ReportFormat[];
  language: Language;
  recipientIds: string[];
  enabled: boolean;
  nextDueAt: Date;
};

export async function insertSchedule(
  db: Db,
  scope: ReportScope,
  values: ScheduleValues,
): Promise<ScheduleRow> {
  const [row] = await db
    .insert(reportSchedules)
    .values({ ...values, customerId: scope.customerId, siteId: scope.siteId })
    .returning();
  return row!;
}

export async function listSchedules(db: Db, scope: ReportScope): Promise<ScheduleRow[]> {
  return db
    .select()
    .from(reportSchedules)
    .where(inScope(reportSchedules, scope))
    .orderBy(asc(reportSchedules.name), asc(reportSchedules.id));
}

export async function findSchedule(
  db: Db,
  scope: ReportScope,
  id: string,
  forUpdate = false,
): Promise<ScheduleRow | undefined> {
  const query = db
    .select()
    .from(reportSchedules)
    .where(and(eq(reportSchedules.id, id), inScope(reportSchedules, scope)));
  const [row] = await (forUpdate ? query.for('update') : query);
  return row;
}

export async function updateSchedule(
  db: Db,
  id: string,
  values: ScheduleValues,
  now: Date,
): Promise<ScheduleRow> {
  const [row] = await db
    .update(reportSchedules)
    .set({ ...values, updatedAt: now })
    .where(eq(reportSchedules.id, id))
    .returning();
  return row!;
}

export async function deleteSchedule(db: Db, id: string): Promise<void> {
  await db.delete(reportSchedules).where(eq(reportSchedules.id, id));
}

/**
 * The job's claim (docs/reports.md "Once, whatever the instances"): enabled schedules whose report
 * is due and that no instance holds, locked with SKIP LOCKED and held until `leaseEnd` in the same
 * statement, so that another instance neither waits for nor takes them.
 */
export async function claimDueSchedules(
  db: Db,
  now: Date,
  leaseEnd: Date,
  limit: number,
): Promise<ScheduleRow[]> {
  const due = db
    .select({ id: reportSchedules.id })
    .from(reportSchedules)
    .where(
      and(
        eq(reportSchedules.enabled, true),
        lte(reportSchedules.nextDueAt, now),
        or(isNull(reportSchedules.leaseUntil), lte(reportSchedules.leaseUntil, now)),
      ),
    )
    .orderBy(reportSchedules.nextDueAt)
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(reportSchedules)
    .set({ leaseUntil: leaseEnd })
    .where(inArray(reportSchedules.id, due))
    .returning();
}

/**
 * Moves a claimed schedule on to its next period and lets it go, if it is still the one claimed
 * (same due time: not changed nor deleted meanwhile). Answers whether it was.
 */
export async function advanceSchedule(
  db: Db,
  id: string,
  claimedDueAt: Date,
  nextDueAt: Date,
): Promise<boolean> {
  const rows = await db
    .update(reportSchedules)
    .set({ nextDueAt, leaseUntil: null })
    .where(and(eq(reportSchedules.id, id), eq(reportSchedules.nextDueAt, claimedDueAt)))
    .returning({ id: reportSchedules.id });
  return rows.length > 0;
}

export type NewReport = {
  scheduleId: string | null;
  scope: ReportScope;
  periodFrom: string;
  periodTo: string;
  language: Language;
  csv: Uint8Array | null;
  pdf: Uint8Array | null;
  createdBy: string | null;
  createdAt: Date;
};

/**
 * Stores a report; a scheduled one only if its schedule has none for that period yet (the unique
 * schedule and period). Answers its id, or undefined when it was there already.
 */
export async function insertReport(db: Db, report: NewReport): Promise<string | undefined> {
  const [row] = await db
    .insert(reports)
    .values({
      scheduleId: report.scheduleId,
      customerId: report.scope.customerId,
      siteId: report.scope.siteId,
      periodFrom: report.periodFrom,
      periodTo: report.periodTo,
      language: report.language,
      csv: report.csv,
      pdf: report.pdf,
      createdBy: report.createdBy,
      createdAt: report.createdAt,
    })
    .onConflictDoNothing()
    .returning({ id: reports.id });
  return row?.id;
}

/**
 * Keeps the newest `keep` reports of a schedule, or of a scope's reports made on demand (no
 * schedule): the store stays bounded whatever the years a schedule runs.
 */
export async function pruneReports(
  db: Db,
  owner: { scheduleId: string } | { scope: ReportScope },
  keep: number,
): Promise<void> {
  const where =
    'scheduleId' in owner
      ? eq(reports.scheduleId, owner.scheduleId)
      : and(inScope(reports, owner.scope), isNull(reports.scheduleId))!;
  const kept = db
    .select({ id: reports.id })
    .from(reports)
    .where(where)
    .orderBy(desc(reports.createdAt), desc(reports.id))
    .limit(keep);
  await db.delete(reports).where(and(where, notInArray(reports.id, kept)));
}

const listColumns = {
  id: reports.id,
  scheduleId: reports.scheduleId,
  customerId: reports.customerId,
  siteId: reports.siteId,
  periodFrom: reports.periodFrom,
  periodTo: reports.periodTo,
  language: reports.language,
  createdAt: reports.createdAt,
  createdBy: reports.createdBy,
  scheduleName: reportSchedules.name,
  hasCsv: sql<boolean>`${reports.csv} IS NOT NULL`,
  hasPdf: sql<boolean>`${reports.pdf} IS NOT NULL`,
};

/** A scope's reports, newest first (bounded by what is kept: REPORTS_KEPT per schedule and on demand). */
export async function listReports(db: Db, scope: ReportScope, limit: number): Promise<ReportListRow[]> {
  return db
    .select(listColumns)
    .from(reports)
    .leftJoin(reportSchedules, eq(reportSchedules.id, reports.scheduleId))
    .where(inScope(reports, scope))
    .orderBy(desc(reports.createdAt), desc(reports.id))
    .limit(limit);
}

export async function findReport(db: Db, scope: ReportScope, id: string): Promise<ReportListRow | undefined> {
  const [row] = await db
    .select(listColumns)
    .from(reports)
    .leftJoin(reportSchedules, eq(reportSchedules.id, reports.scheduleId))
    .where(and(eq(reports.id, id), inScope(reports, scope)));
  return row;
}

/** One file of a report of the scope: its bytes, or null when the report was not made in that format. */
export async function reportFile(
  db: Db,
  scope: ReportScope,
  id: string,
  format: ReportFormat,
): Promise<{ bytes: Uint8Array | null; periodFrom: string; periodTo: string } | undefined> {
  const [row] = await db
    .select({
      bytes: format === 'csv' ? reports.csv : reports.pdf,
      periodFrom: reports.periodFrom,
      periodTo: reports.periodTo,
    })
    .from(reports)
    .where(and(eq(reports.id, id), inScope(reports, scope)));
  return row;
}

/**
 * The zones' water per UTC hour in [from, to), each zone's flowboxes summed, and their occupants:
 * what leak analytics read (docs/automation.md "Leak analytics"), over a report's period only.
 */
export async function zoneHoursIn(
  db: Db,
  zoneIds: readonly string[],
  from: Date,
  to: Date,
): Promise<Map<string, { occupants: number | null; hours: HourFigure[] }>> {
  const result = new Map<string, { occupants: number | null; hours: HourFigure[] }>();
  if (zoneIds.length === 0) return result;
  const [rows, occupants] = await Promise.all([
    db
      .select({
        zoneId: consumptionHourly.zoneId,
        hour: consumptionHourly.hour,
        volumeMl: sql<string>`sum(${consumptionHourly.volumeMl})`,
      })
      .from(consumptionHourly)
      .where(
        and(
          inArray(consumptionHourly.zoneId, [...zoneIds]),
          gte(consumptionHourly.hour, from),
          lt(consumptionHourly.hour, to),
        ),
      )
      .groupBy(consumptionHourly.zoneId, consumptionHourly.hour),
    db
      .select({ id: zones.id, occupants: zones.occupants })
      .from(zones)
      .where(inArray(zones.id, [...zoneIds])),
  ]);
  const occupantsOf = new Map(occupants.map((z) => [z.id, z.occupants]));
  for (const row of rows) {
    const zone = result.get(row.zoneId) ?? { occupants: occupantsOf.get(row.zoneId) ?? null, hours: [] };
    zone.hours.push({ hour: row.hour, volumeMl: Number(row.volumeMl) });
    result.set(row.zoneId, zone);
  }
  return result;
}
