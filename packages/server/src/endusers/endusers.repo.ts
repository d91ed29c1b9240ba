import { and, asc, count, desc, eq, gt, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { ReviewableRegistrationState } from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import { withZoneScope, withZoneScopeOf } from '../db/scope.ts';
import { buildings, claimCodes, flowboxes, registrations, sites, zones } from '../db/schema.ts';

export type ClaimCodeRow = typeof claimCodes.$inferSelect;
export type RegistrationRow = typeof registrations.$inferSelect;

/** Where a zone sits: what registrations and claim codes are checked and listed by. */
export type ZonePlace = {
  customerId: string;
  siteId: string;
  siteName: string;
  buildingId: string;
  zoneId: string;
  zoneName: string;
};

const place = {
  customerId: sites.customerId,
  siteId: sites.id,
  siteName: sites.name,
  buildingId: buildings.id,
  zoneId: zones.id,
  zoneName: zones.name,
};

export async function placeOfZone(db: Db, zoneId: string): Promise<ZonePlace | undefined> {
  const [row] = await withZoneScope(db.select(place).from(zones)).where(eq(zones.id, zoneId));
  return row;
}

export async function insertClaimCode(db: Db, values: typeof claimCodes.$inferInsert): Promise<ClaimCodeRow> {
  const [row] = await db.insert(claimCodes).values(values).returning();
  return row!;
}

export async function listClaimCodes(db: Db, zoneId: string): Promise<ClaimCodeRow[]> {
  return db
    .select()
    .from(claimCodes)
    .where(eq(claimCodes.zoneId, zoneId))
    .orderBy(desc(claimCodes.createdAt));
}

export async function findClaimCode(db: Db, zoneId: string, id: string): Promise<ClaimCodeRow | undefined> {
  const [row] = await db
    .select()
    .from(claimCodes)
    .where(and(eq(claimCodes.zoneId, zoneId), eq(claimCodes.id, id)));
  return row;
}

export async function revokeClaimCode(db: Db, id: string, at: Date): Promise<ClaimCodeRow> {
  const [row] = await db
    .update(claimCodes)
    .set({ revokedAt: at })
    .where(and(eq(claimCodes.id, id), isNull(claimCodes.revokedAt)))
    .returning();
  if (row) return row;
  const [current] = await db.select().from(claimCodes).where(eq(claimCodes.id, id));
  return current!;
}

const usable = (at: Date): SQL =>
  and(
    isNull(claimCodes.revokedAt),
    gt(claimCodes.expiresAt, at),
    or(isNull(claimCodes.maxUses), lt(claimCodes.uses, claimCodes.maxUses)),
  )!;

/** A code that can still be used now, by its hash. */
export async function findUsableCode(db: Db, codeHash: string, at: Date): Promise<ClaimCodeRow | undefined> {
  const [row] = await db
    .select()
    .from(claimCodes)
    .where(and(eq(claimCodes.codeHash, codeHash), usable(at)));
  return row;
}

/** Counts one use of the code, if it still has one (two confirmations racing for the last use: one wins). */
export async function useClaimCode(db: Db, id: string, at: Date): Promise<ClaimCodeRow | undefined> {
  const [row] = await db
    .update(claimCodes)
    .set({ uses: sql`${claimCodes.uses} + 1` })
    .where(and(eq(claimCodes.id, id), usable(at)))
    .returning();
  return row;
}

export async function serialInZone(db: Db, serial: string, zoneId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: flowboxes.id })
    .from(flowboxes)
    .where(and(eq(flowboxes.serial, serial), eq(flowboxes.zoneId, zoneId)));
  return row !== undefined;
}

/**
 * A registration's password until its address is confirmed: none (no hash verifies against it).
 * The password is chosen on the emailed link's page, by whoever holds the mailbox.
 */
export const NO_PASSWORD_YET = '';

export async function insertRegistrationRow(
  db: Db,
  values: typeof registrations.$inferInsert,
): Promise<RegistrationRow> {
  const [row] = await db.insert(registrations).values(values).returning();
  return row!;
}

/**
 * An unconfirmed registration whose link is this one and still valid, confirmed with the password
 * its opener chose, locked until the transaction ends.
 */
export async function claimConfirmation(
  db: Db,
  tokenHash: string,
  passwordHash: string,
  at: Date,
): Promise<RegistrationRow | undefined> {
  const [row] = await db
    .update(registrations)
    .set({ status: 'pending', confirmedAt: at, confirmTokenHash: null, passwordHash })
    .where(
      and(
        eq(registrations.confirmTokenHash, tokenHash),
        eq(registrations.status, 'unconfirmed'),
        gt(registrations.confirmExpiresAt, at),
      ),
    )
    .returning();
  return row;
}

export async function decideRegistration(
  db: Db,
  id: string,
  patch: Pick<RegistrationRow, 'status' | 'decidedAt' | 'decidedBy' | 'userId'>,
): Promise<RegistrationRow | undefined> {
  const [row] = await db
    .update(registrations)
    .set(patch)
    .where(and(eq(registrations.id, id), eq(registrations.status, 'pending')))
    .returning();
  return row;
}

export type RegistrationWithPlace = { registration: RegistrationRow; place: ZonePlace };

function registrationsWithPlace(db: Db) {
  return withZoneScopeOf(
    db.select({ registration: registrations, place }).from(registrations),
    registrations.zoneId,
  );
}

export async function findRegistration(db: Db, customerId: string, id: string) {
  const [row] = await registrationsWithPlace(db).where(
    and(eq(registrations.id, id), eq(sites.customerId, customerId)),
  );
  return row;
}

export async function listRegistrations(
  db: Db,
  filter: { customerId: string; siteIds: string[] | 'all'; status?: ReviewableRegistrationState },
  page: { limit: number; offset: number },
): Promise<{ rows: RegistrationWithPlace[]; total: number }> {
  if (filter.siteIds !== 'all' && filter.siteIds.length === 0) return { rows: [], total: 0 };
  const conditions: SQL[] = [eq(sites.customerId, filter.customerId)];
  if (filter.siteIds !== 'all') conditions.push(inArray(sites.id, filter.siteIds));
  // An unconfirmed registration is nobody's business but its sender's until the link is opened.
  conditions.push(sql`${registrations.status} <> 'unconfirmed'`);
  if (filter.status) conditions.push(eq(registrations.status, filter.status));
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    registrationsWithPlace(db)
      .where(where)
      .orderBy(desc(registrations.createdAt), asc(registrations.id))
      .limit(page.limit)
      .offset(page.offset),
    withZoneScopeOf(db.select({ total: count() }).from(registrations), registrations.zoneId).where(where),
  ]);
  return { rows, total: total?.total ?? 0 };
}

/** Serialises the registrations of one address, on every instance, until the transaction ends. */
export async function lockAddress(tx: Db, email: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`register:${email}`}, 0))`);
}

/** A registration of this address still waiting (unconfirmed or pending) for this zone. */
export async function hasOpenRegistration(db: Db, email: string, zoneId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: registrations.id })
    .from(registrations)
    .where(
      and(
        eq(registrations.email, email),
        eq(registrations.zoneId, zoneId),
        inArray(registrations.status, ['unconfirmed', 'pending']),
      ),
    );
  return row !== undefined;
}
