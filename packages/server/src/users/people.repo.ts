import { and, asc, count, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { Role } from '@flowbox/shared';
import type { PeopleScope } from '../access/access.ts';
import type { Db } from '../db/client.ts';
import { withZoneScopeOf } from '../db/scope.ts';
import { buildings, customers, sites, users, userSites, userZones, zones } from '../db/schema.ts';
import { placedInSites } from './users.repo.ts';

export type PeopleFilter = {
  scope: PeopleScope;
  role?: Role;
  search?: string;
  limit: number;
  offset: number;
};

export type PersonRow = {
  id: string;
  firstname: string;
  lastname: string;
  email: string;
  role: Role;
  customerId: string | null;
  customerName: string | null;
  lastLoggedIn: Date | null;
  hasPassword: boolean;
  suspendedAt: Date | null;
};

/** The people of a scope, one page (ordered by name), and how many there are in all. */
export async function listPeople(
  db: Db,
  filter: PeopleFilter,
): Promise<{ rows: PersonRow[]; total: number }> {
  const { scope } = filter;
  if (scope.kind === 'sites' && scope.siteIds.length === 0) return { rows: [], total: 0 };
  const conditions: SQL[] = [];
  if (scope.kind !== 'all') conditions.push(eq(users.customerId, scope.customerId));
  if (scope.kind === 'sites') {
    conditions.push(inArray(users.role, scope.roles));
    conditions.push(placedInSites(db, scope.siteIds));
  }
  if (filter.role !== undefined) conditions.push(eq(users.role, filter.role));
  if (filter.search) {
    const pattern = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(
      or(ilike(users.firstname, pattern), ilike(users.lastname, pattern), ilike(users.email, pattern))!,
    );
  }
  const where = conditions.length ? and(...conditions) : undefined;
  const [rows, [totalRow]] = await Promise.all([
    db
      .select({
        id: users.id,
        firstname: users.firstname,
        lastname: users.lastname,
        email: users.email,
        role: users.role,
        customerId: users.customerId,
        customerName: customers.name,
        lastLoggedIn: users.lastLoggedIn,
        passwordHash: users.passwordHash,
        suspendedAt: users.suspendedAt,
      })
      .from(users)
      .leftJoin(customers, eq(customers.id, users.customerId))
      .where(where)
      .orderBy(asc(users.lastname), asc(users.firstname), asc(users.id))
      .limit(filter.limit)
      .offset(filter.offset),
    db.select({ total: count() }).from(users).where(where),
  ]);
  return {
    rows: rows.map(({ passwordHash, ...row }) => ({ ...row, hasPassword: passwordHash !== null })),
    total: totalRow?.total ?? 0,
  };
}

type Named = { id: string; name: string };

/** Each user's rows, in the query's order; a user without any gets an empty list. */
function byUser(userIds: string[], rows: (Named & { userId: string })[]): Map<string, Named[]> {
  const map = new Map<string, Named[]>(userIds.map((id) => [id, []]));
  for (const { userId, ...named } of rows) map.get(userId)?.push(named);
  return map;
}

/** The named sites of the given users (user_sites), only among `onlySites` when given. */
export async function namedSitesOf(
  db: Db,
  userIds: string[],
  onlySites?: string[],
): Promise<Map<string, Named[]>> {
  if (userIds.length === 0 || onlySites?.length === 0) return byUser(userIds, []);
  const conditions = [inArray(userSites.userId, userIds)];
  if (onlySites) conditions.push(inArray(userSites.siteId, onlySites));
  const rows = await db
    .select({ userId: userSites.userId, id: sites.id, name: sites.name })
    .from(userSites)
    .innerJoin(sites, eq(sites.id, userSites.siteId))
    .where(and(...conditions))
    .orderBy(asc(sites.name), asc(sites.id));
  return byUser(userIds, rows);
}

/** The named zones of the given users (user_zones), only inside `onlySites` when given. */
export async function namedZonesOf(
  db: Db,
  userIds: string[],
  onlySites?: string[],
): Promise<Map<string, Named[]>> {
  if (userIds.length === 0 || onlySites?.length === 0) return byUser(userIds, []);
  const conditions = [inArray(userZones.userId, userIds)];
  if (onlySites) conditions.push(inArray(buildings.siteId, onlySites));
  const rows = await withZoneScopeOf(
    db.select({ userId: userZones.userId, id: zones.id, name: zones.name }).from(userZones),
    userZones.zoneId,
    'building',
  )
    .where(and(...conditions))
    .orderBy(asc(zones.name), asc(zones.id));
  return byUser(userIds, rows);
}
