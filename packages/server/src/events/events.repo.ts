import { and, count, desc, eq, gte, inArray, lt, or, type SQL } from 'drizzle-orm';
import type {
  ActivityEvent,
  EventAction,
  EventObject,
  EventOrigin,
  EventsPage,
  EventsQuery,
} from '@flowbox/shared';
import type { Actor } from '../access/access.ts';
import type { Db } from '../db/client.ts';
import { buildings, events, zones } from '../db/schema.ts';
import { cursorTime, cursorUuid, decodeCursor, encodeCursor } from '../db/cursor.ts';
import { buildingAt, withBuildingScope, withZoneScope, zoneAt } from '../db/scope.ts';
import type { BuildingPath, ZonePath } from '../http/params.ts';

/** Where an event sits in the hierarchy: what decides who may read it. */
export type EventScope = {
  customerId: string | null;
  siteId?: string | null;
  buildingId?: string | null;
  zoneId?: string | null;
};

export type NewEvent = {
  action: EventAction;
  object: EventObject;
  objectId: string | null;
  objectLabel: string;
  scope: EventScope;
  /** The user who made the change; none for the system or a device. */
  by: Pick<Actor, 'id' | 'name'> | null;
  origin: EventOrigin;
  changedFields?: string[];
};

/** Records one change; call it with the transaction that makes the change (issue #3). */
export async function recordEvent(db: Db, at: Date, event: NewEvent): Promise<void> {
  await db.insert(events).values(rowOf(at, event));
}

/** Rows a statement: well below PostgreSQL's 65535 parameters at 13 a row. */
const EVENTS_PER_INSERT = 1000;

/** Records many changes of one moment (a deletion's consequences), a few statements for thousands. */
export async function recordEvents(db: Db, at: Date, list: NewEvent[]): Promise<void> {
  for (let i = 0; i < list.length; i += EVENTS_PER_INSERT)
    await db.insert(events).values(list.slice(i, i + EVENTS_PER_INSERT).map((event) => rowOf(at, event)));
}

function rowOf(at: Date, event: NewEvent): typeof events.$inferInsert {
  return {
    createdAt: at,
    actionName: event.action,
    objectName: event.object,
    objectId: event.objectId,
    objectLabel: event.objectLabel,
    userId: event.by?.id ?? null,
    userName: event.by?.name ?? null,
    origin: event.origin,
    customerId: event.scope.customerId,
    siteId: event.scope.siteId ?? null,
    buildingId: event.scope.buildingId ?? null,
    zoneId: event.scope.zoneId ?? null,
    changedFields: event.changedFields ?? [],
  };
}

/** A change a signed-in user made through the product (origin web). */
export function recordChange(
  db: Db,
  at: Date,
  actor: Pick<Actor, 'id' | 'name'>,
  change: Omit<NewEvent, 'by' | 'origin'>,
): Promise<void> {
  return recordEvent(db, at, { ...change, by: actor, origin: 'web' });
}

/** The fields a call changed, by their API names (what an "updated" line lists). */
export function changedFieldsOf(input: object): string[] {
  return Object.entries(input)
    .filter(([, value]) => value !== undefined)
    .map(([key]) => key)
    .sort();
}

/**
 * How many times each of `actions` was recorded in a customer, or one of its sites, in [from, to)
 * (reports' closings, docs/reports.md "Figures").
 */
export async function countEventsByAction(
  db: Db,
  scope: { customerId: string; siteId: string | null },
  actions: readonly EventAction[],
  from: Date,
  to: Date,
): Promise<Map<EventAction, number>> {
  const conditions = [
    eq(events.customerId, scope.customerId),
    inArray(events.actionName, [...actions]),
    gte(events.createdAt, from),
    lt(events.createdAt, to),
  ];
  if (scope.siteId !== null) conditions.push(eq(events.siteId, scope.siteId));
  const rows = await db
    .select({ action: events.actionName, n: count() })
    .from(events)
    .where(and(...conditions))
    .groupBy(events.actionName);
  return new Map(rows.map((r) => [r.action as EventAction, r.n]));
}

/** Keyset cursor: the time and id of the last event shown (stable while new events arrive). */
const EVENT_CURSOR = { at: cursorTime, id: cursorUuid };

/** Which events a screen lists: one level of the hierarchy, and for site managers only their sites. */
export type EventsFilter = EventScope & { onlySites?: string[] };

export async function listEvents(db: Db, filter: EventsFilter, query: EventsQuery): Promise<EventsPage> {
  const conditions: SQL[] = [];
  if (filter.customerId) conditions.push(eq(events.customerId, filter.customerId));
  if (filter.siteId) conditions.push(eq(events.siteId, filter.siteId));
  if (filter.buildingId) conditions.push(eq(events.buildingId, filter.buildingId));
  if (filter.zoneId) conditions.push(eq(events.zoneId, filter.zoneId));
  if (filter.onlySites) {
    if (filter.onlySites.length === 0) return { items: [], next_cursor: null };
    conditions.push(inArray(events.siteId, filter.onlySites));
  }
  if (query.action_name) conditions.push(eq(events.actionName, query.action_name));
  if (query.object_name) conditions.push(eq(events.objectName, query.object_name));
  if (query.user_id) conditions.push(eq(events.userId, query.user_id));
  if (query.origin) conditions.push(eq(events.origin, query.origin));
  if (query.from) conditions.push(gte(events.createdAt, new Date(`${query.from}T00:00:00Z`)));
  if (query.to)
    conditions.push(lt(events.createdAt, new Date(new Date(`${query.to}T00:00:00Z`).getTime() + 86_400_000)));
  if (query.cursor) {
    const { at, id } = decodeCursor(query.cursor, EVENT_CURSOR);
    conditions.push(or(lt(events.createdAt, at), and(eq(events.createdAt, at), lt(events.id, id)))!);
  }
  const rows = await db
    .select()
    .from(events)
    .where(and(...conditions))
    .orderBy(desc(events.createdAt), desc(events.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: page.map(toApiEvent),
    next_cursor: rows.length > query.limit && last ? encodeCursor({ at: last.createdAt, id: last.id }) : null,
  };
}

function toApiEvent(row: typeof events.$inferSelect): ActivityEvent {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    action_name: row.actionName as EventAction,
    object_name: row.objectName as EventObject,
    object_id: row.objectId,
    object_label: row.objectLabel,
    user_id: row.userId,
    user_name: row.userName,
    origin: row.origin as EventOrigin,
    customer_id: row.customerId,
    site_id: row.siteId,
    building_id: row.buildingId,
    zone_id: row.zoneId,
    changed_fields: row.changedFields,
  };
}

/*
 * Whether the path names a building, or a zone, of that site and customer: a log asked of a place
 * that is not there is not found (docs/hierarchy.md). The log reads the hierarchy itself, through
 * db/scope.ts, rather than through the domains it records: events import no domain.
 */

export async function buildingExists(db: Db, path: BuildingPath): Promise<boolean> {
  const rows = await withBuildingScope(db.select({ id: buildings.id }).from(buildings))
    .where(buildingAt(path))
    .limit(1);
  return rows.length > 0;
}

export async function zoneExists(db: Db, path: ZonePath): Promise<boolean> {
  const rows = await withZoneScope(db.select({ id: zones.id }).from(zones))
    .where(zoneAt(path))
    .limit(1);
  return rows.length > 0;
}

/** An activity-log line as another domain reads it back (the water's "off since … by whom"). */
export type LoggedEvent = {
  action: EventAction;
  at: Date;
  origin: EventOrigin;
  userName: string | null;
};

/** A zone's latest lines of these actions, newest first, at most `limit` (the zone's index). */
export async function latestZoneEvents(
  db: Db,
  zoneId: string,
  actions: readonly EventAction[],
  limit: number,
): Promise<LoggedEvent[]> {
  const rows = await db
    .select({
      action: events.actionName,
      at: events.createdAt,
      origin: events.origin,
      userName: events.userName,
    })
    .from(events)
    .where(and(eq(events.zoneId, zoneId), inArray(events.actionName, [...actions])))
    .orderBy(desc(events.createdAt), desc(events.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, action: r.action as EventAction, origin: r.origin as EventOrigin }));
}
