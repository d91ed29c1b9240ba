import { createHash, randomBytes } from 'node:crypto';
import { CLAIM_CODE_ALPHABET, CLAIM_CODE_LENGTH, ROLES, type Registration } from '@flowbox/shared';
import { canIssueClaimCodes, defaultsGivenBy, makeActor, type Actor } from '../access/access.ts';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { recordChange } from '../events/index.ts';
import { findUserByEmail, findUserById, insertUser, siteIdsOf, type UserRow } from '../users/index.ts';
import { registrationApprovedEmail } from './emails.ts';
import {
  decideRegistration,
  type ClaimCodeRow,
  type RegistrationRow,
  type ZonePlace,
} from './endusers.repo.ts';

/** A new claim code: 12 characters of Crockford base32 (60 random bits; 32 divides 256, so no bias). */
export function newClaimCode(): string {
  return [...randomBytes(CLAIM_CODE_LENGTH)].map((byte) => CLAIM_CODE_ALPHABET[byte & 31]).join('');
}

/** How a code is shown: in groups of four. */
export function groupedCode(code: string): string {
  return code.match(/.{1,4}/g)!.join('-');
}

/** Only this is stored: the code is never kept (docs/permissions.md "Registration"). */
export function hashClaimCode(normalised: string): string {
  return createHash('sha256').update(`claim:${normalised}`).digest('hex');
}

/**
 * Who approves a registration: a manager from the registrations screen, or the claim code's issuer
 * through a code that approves by itself (`approveByCode`). Either way the end user gets the role's
 * defaults less what that manager lacks (docs/permissions.md "Granting permissions").
 */
export type Approval = { by: Actor } | { codeIssuer: Actor };

/**
 * A code that approves by itself approves as its issuer would at the moment the address is
 * confirmed: its permissions then cap the account's, and an issuer removed, suspended, or no
 * longer allowed to issue the zone's codes approves nothing: the registration waits for the zone's
 * managers (docs/permissions.md "Registration"). In the caller's transaction.
 */
export async function approveByCode(
  tx: Db,
  ctx: Context,
  registration: RegistrationRow,
  code: ClaimCodeRow,
  place: ZonePlace,
): Promise<'approved' | 'pending'> {
  if (!code.autoApprove) return 'pending';
  const issuer = await codeIssuerNow(tx, code, place);
  if (!issuer) return 'pending';
  // An address that got an account meanwhile stays a request for the managers to see.
  if (await findUserByEmail(tx, registration.email)) return 'pending';
  await activateRegistration(tx, ctx, registration, place, { codeIssuer: issuer });
  return 'approved';
}

async function codeIssuerNow(tx: Db, code: ClaimCodeRow, place: ZonePlace): Promise<Actor | undefined> {
  if (!code.createdBy) return undefined;
  const row = await findUserById(tx, code.createdBy);
  if (!row || row.suspendedAt) return undefined;
  const siteIds = (await siteIdsOf(tx, [row.id])).get(row.id) ?? [];
  const issuer = makeActor(row, siteIds, 'claim-code');
  return canIssueClaimCodes(issuer, place.customerId, place.siteId) ? issuer : undefined;
}

/**
 * Turns a pending registration into an end user of its zone, in the caller's transaction: the
 * password chosen when the address was confirmed, the zone the code named, the permissions its approval allows.
 * Answers the emails to send once the transaction commits.
 */
export async function activateRegistration(
  tx: Db,
  ctx: Context,
  registration: RegistrationRow,
  place: ZonePlace,
  approval: Approval,
): Promise<{ user: UserRow; row: RegistrationRow }> {
  if (await findUserByEmail(tx, registration.email)) throw new AppError('errors.email_taken');
  const now = ctx.now();
  const by = 'by' in approval ? approval.by : null;
  const grantor = 'by' in approval ? approval.by : approval.codeIssuer;
  const user = await insertUser(
    tx,
    {
      email: registration.email,
      username: registration.email,
      firstname: registration.firstname,
      lastname: registration.lastname,
      language: registration.language,
      passwordHash: registration.passwordHash,
      role: ROLES.end_user,
      customerId: place.customerId,
      permissions: defaultsGivenBy(grantor, ROLES.end_user),
    },
    [],
    [place.zoneId],
  );
  const row = await decideRegistration(tx, registration.id, {
    status: 'approved',
    decidedAt: now,
    decidedBy: by?.id ?? null,
    userId: user.id,
  });
  if (!row) throw new AppError('errors.registration_decided');
  const label = `${registration.firstname} ${registration.lastname}`;
  const who = by ?? { id: user.id, name: label };
  const scope = {
    customerId: place.customerId,
    siteId: place.siteId,
    buildingId: place.buildingId,
    zoneId: place.zoneId,
  };
  await recordChange(tx, now, who, {
    action: 'approved',
    object: 'registration',
    objectId: row.id,
    objectLabel: label,
    scope,
  });
  await recordChange(tx, now, who, {
    action: 'created',
    object: 'end_user',
    objectId: user.id,
    objectLabel: label,
    scope,
  });
  await ctx.mailer.enqueue(tx, [
    {
      to: user.email,
      ...registrationApprovedEmail(user.language, `${ctx.config.publicUrl}/login`),
      kind: 'registration_approved',
    },
  ]);
  return { user, row };
}

export function toApiRegistration(registration: RegistrationRow, place: ZonePlace): Registration {
  return {
    id: registration.id,
    firstname: registration.firstname,
    lastname: registration.lastname,
    email: registration.email,
    language: registration.language,
    flowbox_serial: registration.flowboxSerial,
    status: registration.status,
    customer_id: place.customerId,
    site_id: place.siteId,
    site_name: place.siteName,
    building_id: place.buildingId,
    zone_id: place.zoneId,
    zone_name: place.zoneName,
    created_at: registration.createdAt.toISOString(),
    confirmed_at: registration.confirmedAt?.toISOString() ?? null,
    decided_at: registration.decidedAt?.toISOString() ?? null,
  };
}
