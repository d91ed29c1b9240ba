import {
  FLEET_LEAK_CATEGORIES,
  type FleetFilter,
  type FleetRow,
  type FleetSort,
  type FlowboxModel,
  type ValveState,
} from '@flowbox/shared';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  cursorInteger,
  cursorOneOf,
  cursorText,
  cursorTime,
  decodeCursor,
  encodeCursor,
} from '../db/cursor.ts';
import { joinUpSql } from '../db/scope.ts';
import { foldOpenAlertCounts } from './open-alert-counts.repo.ts';

/*
 * The fleet list's one query (docs/fleet.md "Speed"). A page is read in the order of an index
 * (the serial, or one of migration 0015's) from the cursor on, with the scope and filters as
 * conditions, and stops at `limit + 1` rows: a deep page costs what the first one does. The whole
 * fleet sorted by open alerts reads each flowbox's count kept by triggers (migration 0020); a
 * customer's or some sites' list counts their own alerts not resolved once, never per flowbox.
 * Those kept counts are brought up to date by open-alert-counts.repo.ts.
 */

/** What a caller may see: everything (provider), one customer, or some sites of one customer. */
export type FleetScope = { customerId?: string; siteIds?: string[] };

/** A position in one sort: its key (text, ISO time or count) and the serial that breaks ties. */
type Cursor = { sort: FleetSort; key: string | number; serial: string };
/** What a cursor's key and serial may be: PostgreSQL's int, a customer's name or version, a serial. */
const MAX_INT = 2 ** 31 - 1;
const MAX_TEXT_KEY = 500;
const MAX_SERIAL = 64;

const EPOCH = sql`'1970-01-01T00:00:00Z'::timestamptz`;
const LEAK = sql.join(
  FLEET_LEAK_CATEGORIES.map((c) => sql`${c}`),
  sql`, `,
);

/** Each sort's key over `flowboxes f`, written as its index is (migration 0015), never null. */
const SORT_KEYS: Record<Exclude<FleetSort, 'customer' | 'open_alerts'>, SQL> = {
  serial: sql`f.serial`,
  // The minute shown (migration 0022): an index on the exact instant would change on every batch.
  last_reading: sql`coalesce(f.last_reading_minute, ${EPOCH})`,
  firmware: sql`coalesce(f.firmware_version, '')`,
};

/** Alerts not resolved of a flowbox `f`, and of its zone naming no flowbox: two index probes. */
const OPEN_ALERTS = sql`((SELECT count(*) FROM alerts a WHERE a.state <> 'resolved' AND a.flowbox_id = f.id)
  + (SELECT count(*) FROM alerts a WHERE a.state <> 'resolved' AND a.flowbox_id IS NULL AND a.zone_id = f.zone_id))::int`;

/**
 * The alerts not resolved that the caller may see: its customer's, or its sites' only. Whatever
 * counts or sorts by them costs what the caller's own open alerts cost, so a mass outage of one
 * customer never slows another customer's list (docs/fleet.md "Speed").
 */
function openAlertsOf(scope: FleetScope, alias: string): SQL {
  const a = sql.raw(alias);
  const where: SQL[] = [sql`${a}.state <> 'resolved'`];
  if (scope.customerId) where.push(sql`${a}.customer_id = ${scope.customerId}`);
  if (scope.siteIds)
    where.push(
      scope.siteIds.length === 0
        ? sql`false`
        : sql`${a}.site_id IN (${sql.join(
            scope.siteIds.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})`,
    );
  return all(where);
}

/**
 * The place whose alerts a list reads: the caller's scope, narrowed by the customer or site the
 * filter names (a provider looking at one customer counts that customer's alerts only).
 */
function alertScope(scope: FleetScope, filter: FleetFilter): FleetScope {
  return {
    customerId: scope.customerId ?? filter.customer_id,
    siteIds: filter.site_id ? [filter.site_id] : scope.siteIds,
  };
}

/**
 * The count of alerts not resolved of each flowbox that has some (its own, and its zone's naming
 * no flowbox): one aggregate over the caller's alerts not resolved, for the open-alerts sort.
 */
const alertCounts = (scope: FleetScope) => sql`(SELECT id, sum(n)::int AS n FROM (
    SELECT a.flowbox_id AS id, count(*) AS n FROM alerts a
    WHERE ${openAlertsOf(scope, 'a')} AND a.flowbox_id IS NOT NULL GROUP BY a.flowbox_id
    UNION ALL
    SELECT f2.id, za.n FROM (
      SELECT a.zone_id, count(*) AS n FROM alerts a WHERE ${openAlertsOf(scope, 'a')} AND a.flowbox_id IS NULL
      GROUP BY a.zone_id
    ) za JOIN flowboxes f2 ON f2.zone_id = za.zone_id
  ) counted GROUP BY id)`;

/** The caller's flowboxes with at least one alert not resolved (theirs or their zone's). */
const withAlerts = (scope: FleetScope) => sql`(SELECT a.flowbox_id FROM alerts a
  WHERE ${openAlertsOf(scope, 'a')} AND a.flowbox_id IS NOT NULL
  UNION SELECT f2.id FROM alerts a JOIN flowboxes f2 ON f2.zone_id = a.zone_id
  WHERE ${openAlertsOf(scope, 'a')} AND a.flowbox_id IS NULL)`;

function keyParam(sort: FleetSort, key: string | number): SQL {
  if (sort === 'last_reading') return sql`${key}::timestamptz`;
  if (sort === 'open_alerts') return sql`${key}::int`;
  return sql`${key}::text`;
}

/** Whether the conditions name the zone's place (then the page query joins up to the site). */
function placed(scope: FleetScope, filter: FleetFilter): boolean {
  return Boolean(scope.customerId || scope.siteIds || filter.customer_id || filter.site_id);
}

function conditions(scope: FleetScope, filter: FleetFilter): SQL[] {
  const where: SQL[] = [];
  if (scope.customerId) where.push(sql`s.customer_id = ${scope.customerId}`);
  if (scope.siteIds) {
    if (scope.siteIds.length === 0) where.push(sql`false`);
    else
      where.push(
        sql`b.site_id IN (${sql.join(
          scope.siteIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`,
      );
  }
  if (filter.customer_id) where.push(sql`s.customer_id = ${filter.customer_id}`);
  if (filter.site_id) where.push(sql`b.site_id = ${filter.site_id}`);
  if (filter.q) {
    // A prefix of the serial, whatever its case; the LIKE wildcards typed are plain characters.
    const escaped = filter.q.toLowerCase().replace(/[\\%_]/g, (m) => `\\${m}`);
    where.push(sql`lower(f.serial) LIKE ${`${escaped}%`}`);
  }
  if (filter.offline === true) where.push(sql`f.connected = false`);
  if (filter.offline === false) where.push(sql`f.connected = true`);
  if (filter.closed === true) where.push(sql`f.valve = 'closed'`);
  if (filter.closed === false) where.push(sql`f.valve IS DISTINCT FROM 'closed'`);
  if (filter.locked !== undefined)
    where.push(
      sql`f.zone_id ${filter.locked ? sql`IN` : sql`NOT IN`} (SELECT zone_id FROM zone_automation WHERE locked_at IS NOT NULL)`,
    );
  if (filter.leaking !== undefined)
    where.push(
      sql`f.zone_id ${filter.leaking ? sql`IN` : sql`NOT IN`} (SELECT a.zone_id FROM alerts a WHERE ${openAlertsOf(alertScope(scope, filter), 'a')} AND a.category IN (${LEAK}))`,
    );
  // Leak analytics of the flowbox's zone (docs/automation.md "Leak analytics"): one row per zone.
  if (filter.continuous_flow_days !== undefined)
    where.push(
      sql`f.zone_id IN (SELECT zone_id FROM zone_leaks WHERE continuous_hours >= ${filter.continuous_flow_days * 24})`,
    );
  if (filter.night_above_allowance !== undefined)
    where.push(
      sql`f.zone_id ${filter.night_above_allowance ? sql`IN` : sql`NOT IN`} (SELECT zone_id FROM zone_leaks WHERE above_allowance)`,
    );
  if (filter.firmware_version) where.push(sql`coalesce(f.firmware_version, '') = ${filter.firmware_version}`);
  if (filter.model) where.push(sql`f.model = ${filter.model}`);
  return where;
}

/** The flowbox's zone, building and site (`z`, `b`, `s`), which the scope and place filters read. */
const PLACE = joinUpSql('flowbox', 'site');
const all = (where: SQL[]) => sql.join(where.length ? where : [sql`true`], sql` AND `);

type RawRow = {
  id: string;
  serial: string;
  model: string | null;
  customer_id: string;
  customer_name: string;
  site_id: string;
  site_name: string;
  building_id: string;
  building_name: string;
  zone_id: string;
  zone_name: string;
  connected: boolean;
  connection_changed_at: Date | string | null;
  valve: string | null;
  locked: boolean;
  leaking: boolean;
  firmware_version: string | null;
  last_reading_at: Date | string | null;
  open_alerts: number | string;
};

/** A page's row as the ordering query found it: its position in the sort. */
type Position = { id: string; serial: string; sort_key: Date | string | number };

const iso = (v: Date | string | null): string | null => (v === null ? null : new Date(v).toISOString());

function toRow(r: RawRow): FleetRow {
  return {
    id: r.id,
    serial: r.serial,
    model: r.model as FlowboxModel | null,
    customer_id: r.customer_id,
    customer_name: r.customer_name,
    site_id: r.site_id,
    site_name: r.site_name,
    building_id: r.building_id,
    building_name: r.building_name,
    zone_id: r.zone_id,
    zone_name: r.zone_name,
    connection: r.connected ? 'connected' : r.connection_changed_at === null ? 'never' : 'disconnected',
    connection_since: iso(r.connection_changed_at),
    valve: r.valve as ValveState | null,
    zone_locked: r.locked,
    leaking: r.leaking,
    firmware_version: r.firmware_version,
    last_reading_at: iso(r.last_reading_at),
    open_alerts: Number(r.open_alerts),
  };
}

async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

export type FleetSlice = { items: FleetRow[]; next: string | null };

/**
 * The positions of a page: the ids in the sort's order from the cursor on, `take` of them at
 * most, read by a query that joins only what the conditions need.
 */
async function positions(
  db: Db,
  scope: FleetScope,
  filter: FleetFilter,
  at: Cursor | undefined,
  take: number,
): Promise<Position[]> {
  const desc = filter.dir === 'desc';
  const direction = desc ? sql`DESC` : sql`ASC`;
  const after = desc ? sql`<` : sql`>`;
  const where = conditions(scope, filter);
  const join = placed(scope, filter) ? PLACE : sql``;
  if (filter.sort === 'customer') {
    // Customers in name order, each one's flowboxes by serial, until the page is full.
    const inner = [...where, sql`s.customer_id = c.id`];
    const outer: SQL[] = [];
    if (scope.customerId) outer.push(sql`c.id = ${scope.customerId}`);
    if (filter.customer_id) outer.push(sql`c.id = ${filter.customer_id}`);
    if (at) {
      inner.push(sql`(c.name, f.serial) ${after} (${at.key}::text, ${at.serial}::text)`);
      outer.push(sql`c.name ${desc ? sql`<=` : sql`>=`} ${at.key}::text`);
    }
    return rows<Position>(
      db,
      sql`SELECT x.id, x.serial, c.name AS sort_key FROM customers c CROSS JOIN LATERAL (
          SELECT f.id, f.serial FROM flowboxes f ${PLACE} WHERE ${all(inner)}
          ORDER BY f.serial ${direction} LIMIT ${take}) x
        WHERE ${all(outer)} ORDER BY c.name ${direction}, x.serial ${direction} LIMIT ${take}`,
    );
  }
  if (filter.sort === 'open_alerts' && !placed(scope, filter)) {
    // The whole fleet: each flowbox's count (migration 0020), its latest changes added first, read
    // in its index's order.
    await foldOpenAlertCounts(db);
    if (at) where.push(sql`(k.n, k.serial) ${after} (${at.key}::int, ${at.serial}::text)`);
    return rows<Position>(
      db,
      sql`SELECT k.flowbox_id AS id, k.serial, k.n AS sort_key FROM fleet_open_alerts k
        JOIN flowboxes f ON f.id = k.flowbox_id WHERE ${all(where)}
        ORDER BY k.n ${direction}, k.serial ${direction} LIMIT ${take}`,
    );
  }
  if (filter.sort === 'open_alerts') {
    // A customer's or some sites' flowboxes: their own alerts counted, whatever other customers
    // have open. Two runs: the few flowboxes with alerts, by their count; the others (none), by serial.
    const some = async (limit: number, from?: Cursor) =>
      rows<Position>(
        db,
        sql`SELECT f.id, f.serial, k.n AS sort_key FROM ${alertCounts(alertScope(scope, filter))} k
          JOIN flowboxes f ON f.id = k.id ${join}
          WHERE ${all([
            ...where,
            ...(from ? [sql`(k.n, f.serial) ${after} (${from.key}::int, ${from.serial}::text)`] : []),
          ])}
          ORDER BY k.n ${direction}, f.serial ${direction} LIMIT ${limit}`,
      );
    const none = async (limit: number, from?: Cursor) =>
      rows<Position>(
        db,
        sql`SELECT f.id, f.serial, 0 AS sort_key FROM flowboxes f ${join}
          WHERE ${all([
            ...where,
            sql`f.id NOT IN ${withAlerts(alertScope(scope, filter))}`,
            ...(from ? [sql`f.serial ${after} ${from.serial}::text`] : []),
          ])}
          ORDER BY f.serial ${direction} LIMIT ${limit}`,
      );
    const [first, second] = desc ? [some, none] : [none, some];
    const inFirst = !at || (desc ? at.key !== 0 : at.key === 0);
    const found = inFirst ? await first(take, at) : [];
    if (found.length >= take) return found;
    return [...found, ...(await second(take - found.length, inFirst ? undefined : at))];
  }
  const key = SORT_KEYS[filter.sort];
  if (at) where.push(sql`(${key}, f.serial) ${after} (${keyParam(at.sort, at.key)}, ${at.serial}::text)`);
  return rows<Position>(
    db,
    sql`SELECT f.id, f.serial, ${key} AS sort_key FROM flowboxes f ${join} WHERE ${all(where)}
      ORDER BY ${key} ${direction}, f.serial ${direction} LIMIT ${take}`,
  );
}

/** One page of the fleet in the filter's order, after the cursor's position. */
export async function fleetPage(
  db: Db,
  scope: FleetScope,
  filter: FleetFilter,
  cursor: string | undefined,
  limit: number,
): Promise<FleetSlice> {
  const at = cursor ? positionOf(cursor, filter.sort) : undefined;
  const found = await positions(db, scope, filter, at, limit + 1);
  const page = found.slice(0, limit);
  if (page.length === 0) return { items: [], next: null };
  // The page's rows, their place's names and their alerts: index lookups for these rows only.
  const details = await rows<RawRow>(
    db,
    sql`SELECT f.id, f.serial, f.model, c.id AS customer_id, c.name AS customer_name,
      s.id AS site_id, s.name AS site_name, b.id AS building_id, b.name AS building_name,
      z.id AS zone_id, z.name AS zone_name, f.connected, f.connection_changed_at, f.valve,
      EXISTS (SELECT 1 FROM zone_automation l WHERE l.zone_id = f.zone_id AND l.locked_at IS NOT NULL) AS locked,
      EXISTS (SELECT 1 FROM alerts a WHERE a.zone_id = f.zone_id AND a.state <> 'resolved'
        AND a.category IN (${LEAK})) AS leaking,
      f.firmware_version, f.last_reading_at, ${OPEN_ALERTS} AS open_alerts
      FROM flowboxes f ${joinUpSql('flowbox', 'customer')}
      WHERE f.id IN (${sql.join(
        page.map((p) => sql`${p.id}::uuid`),
        sql`, `,
      )})`,
  );
  const byId = new Map(details.map((d) => [d.id, d]));
  const last = page.at(-1)!;
  return {
    items: page.flatMap((p) => {
      const row = byId.get(p.id);
      return row ? [toRow(row)] : [];
    }),
    next: found.length > limit ? cursorOf(filter.sort, last) : null,
  };
}

/** How many flowboxes match (the first page's total). */
export async function fleetCount(db: Db, scope: FleetScope, filter: FleetFilter): Promise<number> {
  const join = placed(scope, filter) ? PLACE : sql``;
  const [row] = await rows<{ n: number | string }>(
    db,
    sql`SELECT count(*)::int AS n FROM flowboxes f ${join} WHERE ${all(conditions(scope, filter))}`,
  );
  return Number(row?.n ?? 0);
}

function cursorOf(sort: FleetSort, row: Position): string {
  const key =
    sort === 'last_reading'
      ? new Date(row.sort_key)
      : sort === 'open_alerts'
        ? Number(row.sort_key)
        : String(row.sort_key);
  return encodeCursor({ sort, key, serial: row.serial });
}

/** A cursor of this sort, as `cursorOf` wrote it; anything else is refused (400). */
function positionOf(cursor: string, sort: FleetSort): Cursor {
  const { key, serial } = decodeCursor(cursor, {
    sort: cursorOneOf(sort),
    key:
      sort === 'last_reading'
        ? cursorTime
        : sort === 'open_alerts'
          ? cursorInteger(0, MAX_INT)
          : cursorText(MAX_TEXT_KEY),
    serial: cursorText(MAX_SERIAL),
  });
  return { sort, key: key instanceof Date ? key.toISOString() : key, serial };
}

/** Whether the customer exists (a list filter naming it). */
export async function customerExists(db: Db, customerId: string): Promise<boolean> {
  const found = await rows<{ id: string }>(db, sql`SELECT id FROM customers WHERE id = ${customerId}`);
  return found.length > 0;
}

/** The customer of a site, if the site exists. */
export async function customerOfSite(db: Db, siteId: string): Promise<string | undefined> {
  const [row] = await rows<{ customer_id: string }>(
    db,
    sql`SELECT customer_id FROM sites WHERE id = ${siteId}`,
  );
  return row?.customer_id;
}
