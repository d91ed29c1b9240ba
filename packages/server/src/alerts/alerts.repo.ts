import {
  alertSeverity,
  CRITICAL_ALERT_CATEGORIES,
  UNOPENED_ESCALATION_MINUTES,
  type Alert,
  type AlertCategory,
  type AlertDetails,
  type AlertsPage,
  type AlertCountQuery,
  type AlertsQuery,
  type VolumeUnit,
} from '@flowbox/shared';
import {
  and,
  count,
  desc,
  eq,
  getTableColumns,
  gte,
  inArray,
  lt,
  lte,
  ne,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { withBuildingScope, withZoneScope, zoneScopeColumns } from '../db/scope.ts';
import { alertPushes, alerts, buildings, customers, sites, zones } from '../db/schema.ts';
import { cursorTime, cursorUuid, decodeCursor, encodeCursor } from '../db/cursor.ts';

export type AlertRow = typeof alerts.$inferSelect;

/** Where a zone sits, and what decides whether an alert may be raised on it. */
export type AlertZone = {
  customerId: string;
  siteId: string;
  buildingId: string;
  zoneId: string;
  zoneName: string;
  buildingName: string;
  /** The building's, in which the alert is told (screen and email). */
  timezone: string;
  volumeUnit: VolumeUnit;
  premium: boolean;
};

export async function findAlertZone(db: Db, zoneId: string): Promise<AlertZone | undefined> {
  const [row] = await withZoneScope(
    db
      .select({
        ...zoneScopeColumns,
        zoneName: zones.name,
        buildingName: buildings.name,
        timezone: buildings.timezone,
        volumeUnit: buildings.volumeUnit,
        serviceLevel: zones.serviceLevel,
      })
      .from(zones),
  ).where(eq(zones.id, zoneId));
  if (!row) return undefined;
  const { serviceLevel, ...zone } = row;
  return { ...zone, premium: serviceLevel === 'premium' };
}

export type NewAlert = {
  category: AlertCategory;
  cause: string;
  details: AlertDetails;
  flowboxId: string | null;
  flowboxSerial: string | null;
  zone: AlertZone;
  at: Date;
};

/**
 * Opens the alert, or counts a repeat on the one not yet resolved for the same zone and cause
 * (the partial unique index decides, so two instances raising at once still make one alert).
 */
export async function upsertAlert(db: Db, alert: NewAlert): Promise<{ row: AlertRow; opened: boolean }> {
  const [result] = await db
    .insert(alerts)
    .values({
      category: alert.category,
      cause: alert.cause,
      state: 'open',
      details: alert.details,
      customerId: alert.zone.customerId,
      siteId: alert.zone.siteId,
      buildingId: alert.zone.buildingId,
      zoneId: alert.zone.zoneId,
      flowboxId: alert.flowboxId,
      flowboxSerial: alert.flowboxSerial,
      openedAt: alert.at,
      lastSeenAt: alert.at,
      notifyDueAt: alert.at,
      escalateAt:
        alertSeverity(alert.category) === 'critical'
          ? new Date(alert.at.getTime() + UNOPENED_ESCALATION_MINUTES * 60_000)
          : null,
    })
    .onConflictDoUpdate({
      target: [alerts.zoneId, alerts.cause],
      targetWhere: sql`${alerts.state} <> 'resolved'`,
      set: {
        count: sql`${alerts.count} + 1`,
        lastSeenAt: alert.at,
        details: alert.details,
      },
    })
    .returning({ ...getTableColumns(alerts), opened: sql<boolean>`(xmax = 0)` });
  const { opened, ...row } = result!;
  return { row, opened };
}

export async function findActiveByCause(
  db: Db,
  zoneId: string,
  cause: string,
): Promise<AlertRow | undefined> {
  const [row] = await db
    .select()
    .from(alerts)
    .where(and(eq(alerts.zoneId, zoneId), eq(alerts.cause, cause), ne(alerts.state, 'resolved')))
    .for('update');
  return row;
}

export async function findAlertRow(db: Db, id: string, forUpdate = false): Promise<AlertRow | undefined> {
  const query = db.select().from(alerts).where(eq(alerts.id, id));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function updateAlert(
  db: Db,
  id: string,
  patch: Partial<typeof alerts.$inferInsert>,
): Promise<AlertRow> {
  const [row] = await db.update(alerts).set(patch).where(eq(alerts.id, id)).returning();
  return row!;
}

/** What a caller may see: everything (provider), one customer, or some sites of one customer. */
export type AlertScope = { customerId?: string; siteIds?: string[]; zoneIds?: string[] };

function scopeConditions(scope: AlertScope): SQL[] {
  const conditions: SQL[] = [];
  if (scope.customerId) conditions.push(eq(alerts.customerId, scope.customerId));
  if (scope.siteIds) conditions.push(inArray(alerts.siteId, scope.siteIds.length ? scope.siteIds : [NONE]));
  if (scope.zoneIds) conditions.push(inArray(alerts.zoneId, scope.zoneIds.length ? scope.zoneIds : [NONE]));
  return conditions;
}

const NONE = '00000000-0000-0000-0000-000000000000';

const listColumns = {
  alert: alerts,
  zoneName: zones.name,
  buildingName: buildings.name,
  timezone: buildings.timezone,
  volumeUnit: buildings.volumeUnit,
};

/** The caller's scope narrowed to the customer, site, building or zone a query names. */
function placeConditions(scope: AlertScope, query: AlertCountQuery): SQL[] {
  const conditions = scopeConditions(scope);
  if (query.customer_id) conditions.push(eq(alerts.customerId, query.customer_id));
  if (query.site_id) conditions.push(eq(alerts.siteId, query.site_id));
  if (query.building_id) conditions.push(eq(alerts.buildingId, query.building_id));
  if (query.zone_id) conditions.push(eq(alerts.zoneId, query.zone_id));
  return conditions;
}

/** Keyset cursor: when the last alert shown was last seen, and its id. */
const ALERT_CURSOR = { at: cursorTime, id: cursorUuid };

export async function listAlerts(db: Db, scope: AlertScope, query: AlertsQuery): Promise<AlertsPage> {
  const conditions = placeConditions(scope, query);
  if (query.category) conditions.push(eq(alerts.category, query.category));
  if (query.state === 'active') conditions.push(ne(alerts.state, 'resolved'));
  else if (query.state) conditions.push(eq(alerts.state, query.state));
  if (query.from) conditions.push(gte(alerts.lastSeenAt, new Date(`${query.from}T00:00:00Z`)));
  if (query.to)
    conditions.push(lt(alerts.openedAt, new Date(new Date(`${query.to}T00:00:00Z`).getTime() + 86_400_000)));
  if (query.cursor) {
    const { at, id } = decodeCursor(query.cursor, ALERT_CURSOR);
    conditions.push(or(lt(alerts.lastSeenAt, at), and(eq(alerts.lastSeenAt, at), lt(alerts.id, id)))!);
  }
  const rows = await db
    .select(listColumns)
    .from(alerts)
    .innerJoin(zones, eq(zones.id, alerts.zoneId))
    .innerJoin(buildings, eq(buildings.id, alerts.buildingId))
    .where(and(...conditions))
    .orderBy(desc(alerts.lastSeenAt), desc(alerts.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: page.map((r) => toApiAlert(r.alert, r)),
    next_cursor:
      rows.length > query.limit && last
        ? encodeCursor({ at: last.alert.lastSeenAt, id: last.alert.id })
        : null,
  };
}

/**
 * The alerts of a customer, or of one of its sites, opened in [from, to), per category: how many
 * opened, and how many of those are resolved by now (reports/, docs/reports.md "Figures").
 */
export async function openedAlertCounts(
  db: Db,
  scope: { customerId: string; siteId: string | null },
  from: Date,
  to: Date,
): Promise<{ category: AlertCategory; opened: number; resolved: number }[]> {
  const conditions = [
    eq(alerts.customerId, scope.customerId),
    gte(alerts.openedAt, from),
    lt(alerts.openedAt, to),
  ];
  if (scope.siteId !== null) conditions.push(eq(alerts.siteId, scope.siteId));
  const rows = await db
    .select({
      category: alerts.category,
      opened: count(),
      resolved: sql<number>`count(*) FILTER (WHERE ${alerts.state} = 'resolved')`.mapWith(Number),
    })
    .from(alerts)
    .where(and(...conditions))
    .groupBy(alerts.category)
    .orderBy(alerts.category);
  return rows.map((r) => ({ category: r.category as AlertCategory, opened: r.opened, resolved: r.resolved }));
}

export async function loadApiAlert(db: Db, id: string): Promise<Alert | undefined> {
  const [row] = await db
    .select(listColumns)
    .from(alerts)
    .innerJoin(zones, eq(zones.id, alerts.zoneId))
    .innerJoin(buildings, eq(buildings.id, alerts.buildingId))
    .where(eq(alerts.id, id));
  return row ? toApiAlert(row.alert, row) : undefined;
}

export async function countAlerts(
  db: Db,
  scope: AlertScope,
  query: AlertCountQuery = {},
): Promise<{ open: number; silenced: number }> {
  const rows = await db
    .select({ state: alerts.state, n: count() })
    .from(alerts)
    .where(and(ne(alerts.state, 'resolved'), ...placeConditions(scope, query)))
    .groupBy(alerts.state);
  const of = (state: string) => rows.find((r) => r.state === state)?.n ?? 0;
  return { open: of('open'), silenced: of('silenced') };
}

/**
 * The durable email job's claim: due alerts still open, locked so that another instance skips
 * them (DESIGN.md §2 jobs) until this transaction commits their next due time.
 */
/**
 * Claims critical alerts whose escalation is due (docs/alerts.md "Escalation"): open ones only (a
 * silenced alert is known, a resolved one over), SKIP LOCKED so that each is escalated by one
 * instance; the caller moves `escalate_at` on in the same transaction.
 */
export async function claimDueEscalations(db: Db, now: Date, limit: number): Promise<AlertRow[]> {
  return db
    .select()
    .from(alerts)
    .where(and(lte(alerts.escalateAt, now), eq(alerts.state, 'open')))
    .orderBy(alerts.escalateAt)
    .limit(limit)
    .for('update', { skipLocked: true });
}

export async function claimDueAlerts(db: Db, now: Date, limit: number): Promise<AlertRow[]> {
  return db
    .select()
    .from(alerts)
    .where(and(lte(alerts.notifyDueAt, now), eq(alerts.state, 'open')))
    .orderBy(alerts.notifyDueAt)
    .limit(limit)
    .for('update', { skipLocked: true });
}

/**
 * The channel that wakes the instances when an alert whose messages are pushed opens (docs/push.md):
 * NOTIFY is transactional, so it is heard once the alert is committed, never before.
 */
export const ALERT_PUSH_CHANNEL = 'flowbox_alert_push';

/**
 * An alert to push, in the transaction that opened it: its row in `alert_pushes` and the
 * notification, in one statement. The payload names the alert (an empty one would not be
 * dispatched: live/live.ts).
 */
export async function queueAlertPush(db: Db, alert: Pick<AlertRow, 'id' | 'openedAt'>): Promise<void> {
  await db.execute(
    sql`WITH queued AS (INSERT INTO ${alertPushes} (alert_id, opened_at) VALUES (${alert.id}, ${alert.openedAt}))
        SELECT pg_notify(${ALERT_PUSH_CHANNEL}, ${alert.id})`,
  );
}

/**
 * Claims up to `limit` alerts whose push messages are not queued yet, SKIP LOCKED so that with
 * several instances each is taken by one, and takes them off the list in the caller's transaction,
 * which queues their messages: both happen, or neither.
 */
export async function claimPendingPushAlerts(tx: Db, limit: number): Promise<AlertRow[]> {
  const pending = tx
    .select({ alertId: alertPushes.alertId })
    .from(alertPushes)
    .orderBy(alertPushes.openedAt)
    .limit(limit)
    .for('update', { skipLocked: true });
  const taken = await tx
    .delete(alertPushes)
    .where(inArray(alertPushes.alertId, pending))
    .returning({ alertId: alertPushes.alertId });
  if (taken.length === 0) return [];
  return tx
    .select()
    .from(alerts)
    .where(
      inArray(
        alerts.id,
        taken.map((t) => t.alertId),
      ),
    )
    .orderBy(alerts.openedAt);
}

export function toApiAlert(
  row: AlertRow,
  place: Pick<AlertZone, 'zoneName' | 'buildingName' | 'timezone' | 'volumeUnit'>,
): Alert {
  return {
    id: row.id,
    category: row.category,
    cause: row.cause,
    state: row.state,
    critical: CRITICAL_ALERT_CATEGORIES.includes(row.category),
    details: row.details,
    count: row.count,
    opened_at: row.openedAt.toISOString(),
    last_seen_at: row.lastSeenAt.toISOString(),
    silenced_at: row.silencedAt?.toISOString() ?? null,
    resolved_at: row.resolvedAt?.toISOString() ?? null,
    resolved_by: row.resolvedByName,
    resolved_automatically: row.resolvedAutomatically,
    emailed_at: row.emailedAt?.toISOString() ?? null,
    customer_id: row.customerId,
    site_id: row.siteId,
    building_id: row.buildingId,
    zone_id: row.zoneId,
    zone_name: place.zoneName,
    building_name: place.buildingName,
    building_timezone: place.timezone,
    building_volume_unit: place.volumeUnit,
    flowbox_id: row.flowboxId,
    flowbox_serial: row.flowboxSerial,
  };
}

/** Whether the customer exists (an alert list filter naming it). */
export async function customerExists(db: Db, customerId: string): Promise<boolean> {
  const [row] = await db.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId));
  return row !== undefined;
}

/** The customer of a site, if the site exists. */
export async function customerOfSite(db: Db, siteId: string): Promise<string | undefined> {
  const [row] = await db.select({ customerId: sites.customerId }).from(sites).where(eq(sites.id, siteId));
  return row?.customerId;
}

/** Where a building sits (its customer and site), if it exists. */
export async function placeOfBuilding(
  db: Db,
  buildingId: string,
): Promise<{ customerId: string; siteId: string } | undefined> {
  const [row] = await withBuildingScope(
    db.select({ customerId: sites.customerId, siteId: sites.id }).from(buildings),
  ).where(eq(buildings.id, buildingId));
  return row;
}

/** Of these zones, those that exist, with their customer and site. */
export async function placesOfZones(
  db: Db,
  zoneIds: string[],
): Promise<{ id: string; customerId: string; siteId: string }[]> {
  return withZoneScope(
    db.select({ id: zones.id, customerId: sites.customerId, siteId: sites.id }).from(zones),
  ).where(inArray(zones.id, zoneIds));
}
