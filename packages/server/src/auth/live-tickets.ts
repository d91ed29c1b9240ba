import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { LIVE_TICKET_TTL_S } from '../live/index.ts';
import { claimLinkToken, deleteExpiredLinkTokens, insertLinkToken } from './auth.repo.ts';
import { createLinkToken, hashLinkToken, type AccessClaims } from './tokens.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/*
 * The live stream's tickets (docs/devices.md "Live updates"). EventSource cannot send the
 * Authorization header, so the browser asks a ticket (Bearer) and puts it in the stream's URL. A
 * ticket opens one stream, once, within LIVE_TICKET_TTL_S: it is a single-use token of its user,
 * kept hashed in `user_tokens` as emailed links are and claimed in one statement, so that two
 * instances cannot both take it. It names the session it was asked in, which the stream then
 * follows (a hash of the whole ticket, so that name cannot be changed). It is no access token: a
 * logged URL opens nothing, neither a stream nor the rest of the API.
 */

export async function issueLiveTicket(db: Db, claims: AccessClaims, now: Date): Promise<string> {
  // A user's used and expired tickets are of no use to anyone: each request clears them.
  await deleteExpiredLinkTokens(db, claims.userId, 'live_ticket', now);
  const ticket = `${claims.sessionId}.${createLinkToken().token}`;
  await insertLinkToken(db, {
    userId: claims.userId,
    kind: 'live_ticket',
    tokenHash: hashLinkToken(ticket),
    expiresAt: new Date(now.getTime() + LIVE_TICKET_TTL_S * 1000),
  });
  return ticket;
}

/**
 * The session a ticket was asked in, the first time it is used: used again, expired, unknown or
 * forged, it is refused as an expired sign-in is (401).
 */
export async function redeemLiveTicket(db: Db, ticket: string, now: Date): Promise<AccessClaims> {
  const sessionId = ticket.slice(0, ticket.indexOf('.'));
  const userId = UUID.test(sessionId)
    ? await claimLinkToken(db, hashLinkToken(ticket), 'live_ticket', now)
    : undefined;
  if (!userId) throw new AppError('errors.auth_expired');
  return { userId, sessionId };
}
