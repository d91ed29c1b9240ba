import { and, count, eq, gt, gte, isNull, lte, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { emails, refreshTokens, sessions, users, userTokens } from '../db/schema.ts';
import type { UserRow } from '../users/index.ts';

/**
 * The channel on which the database tells every instance that a user, its sites or one of its
 * sessions changed (the payload is the user's id); the triggers of drizzle/0014 send it.
 */
export const AUTH_CHANNEL = 'flowbox_auth';

export async function markLoggedIn(db: Db, userId: string, at: Date): Promise<void> {
  await db.update(users).set({ lastLoggedIn: at }).where(eq(users.id, userId));
}

/** Whether the user opened a session from this address after `since`. */
export async function hasSessionFrom(db: Db, userId: string, ip: string, since: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.ip, ip), gt(sessions.createdAt, since)))
    .limit(1);
  return Boolean(row);
}

/** Answers the new session's id. */
export async function insertSession(
  db: Db,
  values: { userId: string; ip: string; userAgent: string | undefined },
): Promise<string> {
  const [session] = await db.insert(sessions).values(values).returning({ id: sessions.id });
  return session!.id;
}

export async function findSessionRevokedAt(
  db: Db,
  sessionId: string,
): Promise<{ revokedAt: Date | null } | undefined> {
  const [row] = await db
    .select({ revokedAt: sessions.revokedAt })
    .from(sessions)
    .where(eq(sessions.id, sessionId));
  return row;
}

export async function touchSession(db: Db, sessionId: string, at: Date): Promise<void> {
  await db.update(sessions).set({ lastUsedAt: at }).where(eq(sessions.id, sessionId));
}

/** The session, its user and the user's sites and zones, in one round trip (it runs on every request). */
export async function findSessionUser(db: Db, sessionId: string, userId: string) {
  const [row] = await db
    .select({
      user: users,
      revokedAt: sessions.revokedAt,
      siteIds: sql<
        string[]
      >`coalesce((SELECT array_agg(us.site_id::text ORDER BY us.site_id) FROM user_sites AS us WHERE us.user_id = "users"."id"), '{}')`,
      zoneIds: sql<
        string[]
      >`coalesce((SELECT array_agg(uz.zone_id::text ORDER BY uz.zone_id) FROM user_zones AS uz WHERE uz.user_id = "users"."id"), '{}')`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sessionId), eq(users.id, userId)));
  return row;
}

export async function revokeSessionRow(db: Db, sessionId: string, at: Date, reason: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: at, revokedReason: reason })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** Revokes the user's live sessions, but `keepSessionId`'s. */
export async function revokeUserSessions(
  db: Db,
  userId: string,
  keepSessionId: string | null,
  at: Date,
  reason: string,
): Promise<void> {
  const conditions = [eq(sessions.userId, userId), isNull(sessions.revokedAt)];
  if (keepSessionId) conditions.push(ne(sessions.id, keepSessionId));
  await db
    .update(sessions)
    .set({ revokedAt: at, revokedReason: reason })
    .where(and(...conditions));
}

export async function insertRefreshToken(
  db: Db,
  values: { id: string; sessionId: string; expiresAt: Date },
): Promise<void> {
  await db.insert(refreshTokens).values(values);
}

/** Marks every refresh token of the session used. */
export async function expireRefreshTokens(db: Db, sessionId: string, at: Date): Promise<void> {
  await db.update(refreshTokens).set({ usedAt: at }).where(eq(refreshTokens.sessionId, sessionId));
}

/** Marks the session's refresh token used, if it was unused and unexpired; false otherwise. */
export async function claimRefreshToken(
  db: Db,
  tokenId: string,
  sessionId: string,
  now: Date,
): Promise<boolean> {
  const [claimed] = await db
    .update(refreshTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(refreshTokens.id, tokenId),
        eq(refreshTokens.sessionId, sessionId),
        isNull(refreshTokens.usedAt),
        gt(refreshTokens.expiresAt, now),
      ),
    )
    .returning({ id: refreshTokens.id });
  return Boolean(claimed);
}

/** When this session's refresh token was used, if it was (null: unused or unknown). */
export async function refreshTokenUsedAt(db: Db, tokenId: string, sessionId: string): Promise<Date | null> {
  const [row] = await db
    .select({ usedAt: refreshTokens.usedAt })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.id, tokenId), eq(refreshTokens.sessionId, sessionId)));
  return row?.usedAt ?? null;
}

export async function setPasswordHash(
  db: Db,
  userId: string,
  passwordHash: string,
  at: Date,
): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ passwordHash, updatedAt: at })
    .where(eq(users.id, userId))
    .returning();
  return row!;
}

/** What a single-use token of a user opens: an emailed link, or a live stream (live-tickets.ts). */
export type UserTokenKind = (typeof userTokens.$inferSelect)['kind'];

export async function insertLinkToken(
  db: Db,
  values: { userId: string; kind: UserTokenKind; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db.insert(userTokens).values(values);
}

/** Marks an unused, unexpired single-use token used; answers its user, or undefined. */
export async function claimLinkToken(
  db: Db,
  tokenHash: string,
  kind: UserTokenKind,
  now: Date,
): Promise<string | undefined> {
  const [link] = await db
    .update(userTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(userTokens.tokenHash, tokenHash),
        eq(userTokens.kind, kind),
        isNull(userTokens.usedAt),
        gt(userTokens.expiresAt, now),
      ),
    )
    .returning({ userId: userTokens.userId });
  return link?.userId;
}

/** Forgets the user's tokens of this kind that have expired (they can never be used again). */
export async function deleteExpiredLinkTokens(
  db: Db,
  userId: string,
  kind: UserTokenKind,
  now: Date,
): Promise<void> {
  await db
    .delete(userTokens)
    .where(and(eq(userTokens.userId, userId), eq(userTokens.kind, kind), lte(userTokens.expiresAt, now)));
}

/** Marks every unused link of the user used. */
export async function expireLinkTokens(db: Db, userId: string, at: Date): Promise<void> {
  await db
    .update(userTokens)
    .set({ usedAt: at })
    .where(and(eq(userTokens.userId, userId), isNull(userTokens.usedAt)));
}

/** How many emails of this kind the outbox holds for this address since then (it keeps every one). */
export async function emailsSince(db: Db, to: string, kind: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(emails)
    .where(and(eq(emails.to, to), eq(emails.kind, kind), gte(emails.createdAt, since)));
  return row?.n ?? 0;
}
