import { and, asc, count, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import { defaultAlertsSettings, effectivePermissions, roleName, type Role, type User } from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import { joinUp, withZoneScope, withZoneScopeOf } from '../db/scope.ts';
import { buildings, sites, users, userSites, userZones, zones } from '../db/schema.ts';

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
  return row;
}

/** The given users' sites (user_sites), only among `onlySites` when given. */
export async function siteIdsOf(
  db: Db,
  userIds: string[],
  onlySites?: string[],
): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0 || onlySites?.length === 0) return map;
  const conditions = [inArray(userSites.userId, userIds)];
  if (onlySites) conditions.push(inArray(userSites.siteId, onlySites));
  const rows = await db
    .select()
    .from(userSites)
    .where(and(...conditions))
    .orderBy(asc(userSites.siteId));
  for (const row of rows) map.get(row.userId)?.push(row.siteId);
  return map;
}

/** The given users' zones (user_zones), only those inside `onlySites` when given. */
export async function zoneIdsOf(
  db: Db,
  userIds: string[],
  onlySites?: string[],
): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0 || onlySites?.length === 0) return map;
  const conditions = [inArray(userZones.userId, userIds)];
  if (onlySites)
    conditions.push(
      inArray(
        userZones.zoneId,
        joinUp(db.select({ id: zones.id }).from(zones), 'zone', 'building').where(
          inArray(buildings.siteId, onlySites),
        ),
      ),
    );
  const rows = await db
    .select({ userId: userZones.userId, zoneId: userZones.zoneId })
    .from(userZones)
    .where(and(...conditions))
    .orderBy(asc(userZones.zoneId));
  for (const row of rows) map.get(row.userId)?.push(row.zoneId);
  return map;
}

export async function replaceUserZones(db: Db, userId: string, zoneIds: string[]): Promise<void> {
  await db.delete(userZones).where(eq(userZones.userId, userId));
  if (zoneIds.length > 0) await db.insert(userZones).values(zoneIds.map((zoneId) => ({ userId, zoneId })));
}

/**
 * The users placed in one of these sites: assigned to it (user_sites: site managers, plumbers) or
 * bound to one of its zones (user_zones: end users).
 */
export function placedInSites(db: Db, siteIds: string[]): SQL {
  return or(
    inArray(
      users.id,
      db.select({ id: userSites.userId }).from(userSites).where(inArray(userSites.siteId, siteIds)),
    ),
    inArray(
      users.id,
      withZoneScopeOf(
        db.select({ id: userZones.userId }).from(userZones),
        userZones.zoneId,
        'building',
      ).where(inArray(buildings.siteId, siteIds)),
    ),
  )!;
}

export type UserFilter = {
  role: Role;
  customerId?: string;
  siteId?: string;
  /** Only users with a place among these sites: a plumber's sites, an end user's zones (docs/permissions.md). */
  inSites?: string[];
  search?: string;
  limit: number;
  offset: number;
};

export async function listUsers(db: Db, filter: UserFilter): Promise<{ rows: UserRow[]; total: number }> {
  const conditions: SQL[] = [eq(users.role, filter.role)];
  if (filter.customerId) conditions.push(eq(users.customerId, filter.customerId));
  if (filter.siteId) {
    conditions.push(
      inArray(
        users.id,
        db.select({ id: userSites.userId }).from(userSites).where(eq(userSites.siteId, filter.siteId)),
      ),
    );
  }
  if (filter.inSites) {
    const siteIds = filter.inSites.length ? filter.inSites : ['00000000-0000-0000-0000-000000000000'];
    conditions.push(placedInSites(db, siteIds));
  }
  if (filter.search) {
    const pattern = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(
      or(ilike(users.firstname, pattern), ilike(users.lastname, pattern), ilike(users.email, pattern))!,
    );
  }
  const where = and(...conditions);
  const [rows, [totalRow]] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(asc(users.lastname), asc(users.firstname), asc(users.id))
      .limit(filter.limit)
      .offset(filter.offset),
    db.select({ total: count() }).from(users).where(where),
  ]);
  return { rows, total: totalRow?.total ?? 0 };
}

export async function insertUser(
  db: Db,
  values: NewUserRow,
  siteIds: string[] = [],
  zoneIds: string[] = [],
): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning();
  if (siteIds.length > 0)
    await db.insert(userSites).values(siteIds.map((siteId) => ({ userId: row!.id, siteId })));
  if (zoneIds.length > 0)
    await db.insert(userZones).values(zoneIds.map((zoneId) => ({ userId: row!.id, zoneId })));
  return row!;
}

export async function updateUser(db: Db, id: string, patch: Partial<NewUserRow>): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row!;
}

export async function replaceUserSites(db: Db, userId: string, siteIds: string[]): Promise<void> {
  await db.delete(userSites).where(eq(userSites.userId, userId));
  if (siteIds.length > 0) await db.insert(userSites).values(siteIds.map((siteId) => ({ userId, siteId })));
}

export async function deleteUser(db: Db, id: string): Promise<void> {
  await db.delete(users).where(eq(users.id, id));
}

/** The API view of a user: never the password hash, always complete settings (spec §3). */
export function toApiUser(row: UserRow, siteIds: string[], zoneIds: string[] = []): User {
  return {
    id: row.id,
    firstname: row.firstname,
    lastname: row.lastname,
    email: row.email,
    username: row.username,
    role: row.role,
    role_name: roleName(row.role),
    language: row.language,
    last_logged_in: row.lastLoggedIn?.toISOString() ?? null,
    customer_id: row.customerId,
    site_id: siteIds,
    zone_id: zoneIds,
    address: row.address,
    alert_notification_enabled: row.alertNotificationEnabled,
    alerts_settings: { ...defaultAlertsSettings(), ...row.alertsSettings },
    alerts_instance_settings: row.alertsInstanceSettings,
    permissions: effectivePermissions(row.role, row.permissions),
    status: row.suspendedAt ? 'suspended' : row.passwordHash ? 'active' : 'invited',
    created_at: row.createdAt.toISOString(),
  };
}

/** The sites of the given zones that belong to the customer (one per zone found). */
export async function sitesOfZones(
  db: Db,
  customerId: string,
  zoneIds: string[],
): Promise<{ zoneId: string; siteId: string }[]> {
  if (zoneIds.length === 0) return [];
  return withZoneScope(db.select({ zoneId: zones.id, siteId: buildings.siteId }).from(zones)).where(
    and(inArray(zones.id, zoneIds), eq(sites.customerId, customerId)),
  );
}
