import { and, eq, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { PgColumn, PgSelect } from 'drizzle-orm/pg-core';
import { buildings, sites, zones, type flowboxes } from './schema.ts';

/*
 * The customer > site > building > zone hierarchy as the data-access layer reads it (issue #14):
 * the joins that walk a row up to its customer, and the conditions that check that a path of ids
 * from the API names one place (docs/hierarchy.md). Every repo takes them from here, so a zone is
 * placed the same way everywhere, always through the same foreign keys and indexes.
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

/** Joins a query over `zones` to each zone's building and site (whose `customerId` is the zone's customer). */
export function withZoneScope<Q extends Selecting>(query: Q) {
  return withBuildingScope(dynamic(query).innerJoin(buildings, eq(buildings.id, zones.buildingId)));
}

/** Joins a query over a table below zones (flowboxes, schedules…) to the zone `zoneId` names, and up to its site. */
export function withZoneScopeOf<Q extends Selecting>(query: Q, zoneId: PgColumn) {
  return withZoneScope(dynamic(query).innerJoin(zones, eq(zones.id, zoneId)));
}

/** Joins a query over `buildings` to each building's site. */
export function withBuildingScope<Q extends Selecting>(query: Q) {
  return dynamic(query).innerJoin(sites, eq(sites.id, buildings.siteId));
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

/**
 * A place in the hierarchy, named by its own id alone: what is below it, for a deletion that takes
 * it all (foreign keys cascade from the customer down, docs/hierarchy.md "Deleting, and what
 * happens below").
 */
/** Where a flowbox sits: its zone and the building, site and customer above it. */
export type FlowboxScope = { customerId: string; siteId: string; buildingId: string; zoneId: string };
/** A flowbox row with its place in the hierarchy, as the flowbox repo reads it. */
export type LocatedFlowbox = { flowbox: typeof flowboxes.$inferSelect; scope: FlowboxScope };

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
