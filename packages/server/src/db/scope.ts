import { and, eq, getTableName, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { PgColumn, PgSelect } from 'drizzle-orm/pg-core';
import { buildings, customers, flowboxes, sites, zones } from './schema.ts';

/*
 * The customer > site > building > zone > flowbox hierarchy as the data-access layer reads it
 * (issues #14, #31): the joins that walk a row up to its customer (or down to what a path names),
 * and the conditions that check that a path of ids from the API names one place
 * (docs/hierarchy.md). Every repo takes them from here, so a zone is placed the same way
 * everywhere, always through the same foreign keys and indexes; architecture.test.ts refuses a
 * join along a hierarchy key written anywhere else, in the query builder or in raw SQL.
 *
 * The joins take the query after its `from` (`withZoneScope(db.select(…).from(zones))`) and make
 * it dynamic: drizzle types a select whose columns are generic too loosely to join it, but keeps a
 * dynamic one's types exact.
 */

/**
 * A path of ids, or of placeholders for a prepared query (db/prepared.ts) that fills them in at
 * each run.
 */
type Ids<P> = { [K in keyof P]: P[K] | SQLWrapper };

/** The ids naming a place from the customer down, as the API's paths give them (http/params.ts checks them). */
type SitePath = { customerId: string; siteId: string };
type BuildingPath = SitePath & { buildingId: string };
type ZonePath = BuildingPath & { zoneId: string };

/** A select once it has its `from`, dynamic or not. */
type Selecting = { $dynamic(): PgSelect };

function dynamic<Q extends Selecting>(query: Q): ReturnType<Q['$dynamic']> {
  return query.$dynamic() as ReturnType<Q['$dynamic']>;
}

/** The levels of the hierarchy, from the bottom up. */
const LEVELS = ['flowbox', 'zone', 'building', 'site', 'customer'] as const;
export type Level = (typeof LEVELS)[number];

/**
 * Each level's table and the name raw SQL gives it (`f`, `z`, `b`, `s`, `c`), and, below the
 * customer, its foreign key to the level above: the one description both forms of the joins follow.
 */
const HIERARCHY = {
  flowbox: { table: flowboxes, alias: 'f', up: flowboxes.zoneId },
  zone: { table: zones, alias: 'z', up: zones.buildingId },
  building: { table: buildings, alias: 'b', up: buildings.siteId },
  site: { table: sites, alias: 's', up: sites.customerId },
  customer: { table: customers, alias: 'c', up: undefined },
};

/** Each step from `from` up to `to`: the level below, and the level above that it joins. */
function stepsUp(from: Level, to: Level): { below: Level; above: Level; key: PgColumn }[] {
  return LEVELS.slice(LEVELS.indexOf(from), LEVELS.indexOf(to)).map((below, i) => ({
    below,
    above: LEVELS[LEVELS.indexOf(from) + i + 1]!,
    key: HIERARCHY[below].up!,
  }));
}

/**
 * Joins a query over the table of level `from` (a flowbox, zone, building or site) to each level
 * above it up to `to`, by the id the level below names (inner joins: every row has its place):
 * `joinUp(db.select(…).from(flowboxes), 'flowbox', 'zone')`.
 */
export function joinUp<Q extends Selecting>(query: Q, from: Level, to: Level): ReturnType<Q['$dynamic']> {
  let joined: PgSelect = dynamic(query);
  for (const { above, key } of stepsUp(from, to)) {
    const { table } = HIERARCHY[above];
    joined = joined.innerJoin(table, eq(table.id, key));
  }
  return joined as ReturnType<Q['$dynamic']>;
}

/**
 * `joinUp` in raw SQL, for the queries written in SQL (the fleet list, a telemetry batch's
 * flowboxes): the joins from the level `from`, which the query names by its letter (`flowboxes f`,
 * `zones z`, `buildings b`, `sites s`), up to `to`, each joined table named by its letter too.
 * `FROM flowboxes f ${joinUpSql('flowbox', 'site')}` reads
 * `FROM flowboxes f JOIN zones z ON z.id = f.zone_id JOIN buildings b ON b.id = z.building_id
 * JOIN sites s ON s.id = b.site_id`.
 */
export function joinUpSql(from: Level, to: Level): SQL {
  return sql.raw(
    stepsUp(from, to)
      .map(({ below, above, key }) => {
        const { table, alias } = HIERARCHY[above];
        return `JOIN ${getTableName(table)} ${alias} ON ${alias}.id = ${HIERARCHY[below].alias}.${key.name}`;
      })
      .join(' '),
  );
}

/** Joins a query over `zones` to each zone's building and site (whose `customerId` is the zone's customer). */
export function withZoneScope<Q extends Selecting>(query: Q) {
  return joinUp(query, 'zone', 'site');
}

/**
 * Joins a query over a table below zones (flowboxes, schedules…) to the zone `zoneId` names, and up
 * to its site (or only to its building, with `to`).
 */
export function withZoneScopeOf<Q extends Selecting>(
  query: Q,
  zoneId: PgColumn,
  to: 'building' | 'site' = 'site',
) {
  return joinUp(dynamic(query).innerJoin(zones, eq(zones.id, zoneId)), 'zone', to);
}

/** Joins a query over `buildings` to each building's site. */
export function withBuildingScope<Q extends Selecting>(query: Q) {
  return joinUp(query, 'building', 'site');
}

/** Joins a query over `zones` to each zone's flowboxes, keeping once a zone that has none (a left join). */
export function withFlowboxesOfZones<Q extends Selecting>(query: Q) {
  return dynamic(query).leftJoin(flowboxes, eq(flowboxes.zoneId, zones.id));
}

/**
 * Joins a query over `customers` to the site, building and zone a partial path names, each only
 * where it sits in the one above (left joins): a place the path names that is not under the one
 * above, or does not exist, is null, and so is a place it does not name.
 */
export function withPathBelow<Q extends Selecting>(
  query: Q,
  path: { siteId?: string; buildingId?: string; zoneId?: string },
) {
  const named = (id: string | undefined) => id ?? sql`NULL`;
  return dynamic(query)
    .leftJoin(sites, and(eq(sites.customerId, customers.id), eq(sites.id, named(path.siteId))))
    .leftJoin(buildings, and(eq(buildings.siteId, sites.id), eq(buildings.id, named(path.buildingId))))
    .leftJoin(zones, and(eq(zones.buildingId, buildings.id), eq(zones.id, named(path.zoneId))));
}

/** Where a zone sits, as selected columns of a query joined by `withZoneScope`. */
export const zoneScopeColumns = {
  customerId: sites.customerId,
  siteId: buildings.siteId,
  buildingId: zones.buildingId,
  zoneId: zones.id,
};

/** The site the path names, if it is the customer's (a query over `sites`). */
export function siteAt(path: Ids<SitePath>): SQL {
  return and(eq(sites.id, path.siteId), eq(sites.customerId, path.customerId))!;
}

/** The buildings of the site the path names, if it is the customer's (`withBuildingScope`). */
export function buildingsOf(path: Ids<SitePath>): SQL {
  return and(eq(buildings.siteId, path.siteId), eq(sites.customerId, path.customerId))!;
}

/** The building the path names, if it is in that site of that customer (`withBuildingScope`). */
export function buildingAt(path: Ids<BuildingPath>): SQL {
  return and(eq(buildings.id, path.buildingId), buildingsOf(path))!;
}

/** The zones of the building the path names, if it is in that site of that customer (`withZoneScope`). */
export function zonesOf(path: Ids<BuildingPath>): SQL {
  return and(eq(zones.buildingId, path.buildingId), buildingsOf(path))!;
}

/**
 * The zone the path names, if it is in that building, site and customer (`withZoneScope`): a zone
 * asked for under another building, site or customer is not found.
 */
export function zoneAt(path: Ids<ZonePath>): SQL {
  return and(eq(zones.id, path.zoneId), zonesOf(path))!;
}

/** Where a flowbox sits: its zone and the building, site and customer above it. */
export type FlowboxScope = { customerId: string; siteId: string; buildingId: string; zoneId: string };
/** A flowbox row with its place in the hierarchy, as the flowbox repo reads it. */
export type LocatedFlowbox = { flowbox: typeof flowboxes.$inferSelect; scope: FlowboxScope };

/**
 * A place in the hierarchy, named by its own id alone: what is below it, for a deletion that takes
 * it all (foreign keys cascade from the customer down, docs/hierarchy.md "Deleting, and what
 * happens below").
 */
export type HierarchyNode =
  { zoneId: string } | { buildingId: string } | { siteId: string } | { customerId: string };

/** The zones below the node (`withZoneScope`). */
export function zonesUnder(node: HierarchyNode): SQL {
  return 'zoneId' in node
    ? eq(zones.id, node.zoneId)
    : 'buildingId' in node
      ? eq(zones.buildingId, node.buildingId)
      : 'siteId' in node
        ? eq(buildings.siteId, node.siteId)
        : eq(sites.customerId, node.customerId);
}
