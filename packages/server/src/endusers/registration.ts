import type { Language, RegisterInput } from '@flowbox/shared';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { findUserByEmail, type UserRow } from '../users/index.ts';
import { approveByCode } from './activation.ts';
import {
  claimConfirmation,
  findUsableCode,
  hasOpenRegistration,
  insertRegistrationRow,
  lockAddress,
  NO_PASSWORD_YET,
  placeOfZone,
  serialInZone,
  useClaimCode,
} from './endusers.repo.ts';

/*
 * The end users' side of a registration (docs/permissions.md "Registration"), written in the
 * transactions auth opens for its anonymous calls: auth throttles, hashes and emails; the
 * registrations, the claim codes and the approvals are the end users' rows, written here.
 */

/** An emailed link's token as stored, and when it expires. */
type ConfirmLink = { hash: string; expiresAt: Date };

/**
 * A usable claim code (and, when given, a serial of its zone) records an unconfirmed registration:
 * 'confirm' then, for the caller to email the link. An address with an account is the caller's to
 * tell (`tellAccountExists`, false when it may not today): 'told'. Anything else records nothing.
 */
export async function openRegistration(
  tx: Db,
  input: RegisterInput,
  codeHash: string,
  link: ConfirmLink,
  now: Date,
  tellAccountExists: (user: UserRow) => Promise<boolean>,
): Promise<'confirm' | 'told' | null> {
  // One registration of an address at a time: the checks and the counts below hold.
  await lockAddress(tx, input.email);
  const code = await findUsableCode(tx, codeHash, now);
  if (!code) return null;
  if (input.flowbox_serial && !(await serialInZone(tx, input.flowbox_serial, code.zoneId))) return null;
  const user = await findUserByEmail(tx, input.email);
  if (user) return (await tellAccountExists(user)) ? 'told' : null;
  // One open request per address and zone, however often it is sent.
  if (await hasOpenRegistration(tx, input.email, code.zoneId)) return null;
  await insertRegistrationRow(tx, {
    firstname: input.firstname,
    lastname: input.lastname,
    email: input.email,
    // docs/permissions.md "Registration": chosen by whoever opens the emailed link.
    passwordHash: NO_PASSWORD_YET,
    language: input.language as Language,
    flowboxSerial: input.flowbox_serial || null,
    status: 'unconfirmed',
    zoneId: code.zoneId,
    claimCodeId: code.id,
    confirmTokenHash: link.hash,
    confirmExpiresAt: link.expiresAt,
  });
  return 'confirm';
}

/**
 * The registration's emailed link: the address is confirmed, with the password its opener chose,
 * and the claim code counts one use. A code that approves by itself makes the account now;
 * otherwise the zone's managers decide.
 */
export async function confirmRegistrationLink(
  tx: Db,
  ctx: Context,
  tokenHash: string,
  passwordHash: string,
  now: Date,
): Promise<'pending' | 'approved'> {
  const registration = await claimConfirmation(tx, tokenHash, passwordHash, now);
  if (!registration?.zoneId || !registration.claimCodeId) throw new AppError('errors.invalid_token');
  // The code revoked, expired or used up since: the link no longer leads anywhere.
  const code = await useClaimCode(tx, registration.claimCodeId, now);
  if (!code) throw new AppError('errors.invalid_token');
  const place = await placeOfZone(tx, registration.zoneId);
  if (!place) throw new AppError('errors.invalid_token');
  return approveByCode(tx, ctx, registration, code, place);
}
