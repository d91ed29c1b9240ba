import { z } from 'zod';
import { ListQuerySchema } from './errors.ts';
import { passwordField } from '../validation.ts';
import { LanguageSchema } from './users.ts';

/**
 * Claim codes and registrations of end users (docs/permissions.md "Registration"). A claim code is
 * 12 characters of Crockford base32, shown grouped by four; case, spaces and dashes are ignored.
 */
export const CLAIM_CODE_LENGTH = 12;
export const CLAIM_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** The canonical form of a typed claim code: upper case, without separators; Crockford's look-alikes mapped. */
export function normaliseClaimCode(typed: string): string {
  return typed.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
}

export const ClaimCodeCreateSchema = z.object({
  /** Days the code stays usable (at most a year). */
  expires_in_days: z
    .number({ error: 'validation.number' })
    .int('validation.integer')
    .min(1, 'validation.min_one')
    .max(365, 'validation.max')
    .default(30),
  /** How many registrations it may confirm; null: unlimited until it expires. */
  max_uses: z
    .number({ error: 'validation.number' })
    .int('validation.integer')
    .min(1, 'validation.min_one')
    .max(10_000, 'validation.max')
    .nullable()
    .default(1),
  /** Registrations confirmed with it become accounts at once, without a manager's review. */
  auto_approve: z.boolean({ error: 'validation.invalid' }).default(false),
});
export type ClaimCodeCreateInput = z.input<typeof ClaimCodeCreateSchema>;

export const CLAIM_CODE_STATES = ['active', 'expired', 'used_up', 'revoked'] as const;
export type ClaimCodeState = (typeof CLAIM_CODE_STATES)[number];

export const ClaimCodeSchema = z.object({
  id: z.uuid(),
  zone_id: z.uuid(),
  /** The code's last four characters. */
  hint: z.string(),
  expires_at: z.string(),
  max_uses: z.number().int().nullable(),
  uses: z.number().int(),
  auto_approve: z.boolean(),
  state: z.enum(CLAIM_CODE_STATES),
  created_at: z.string(),
});
export type ClaimCode = z.infer<typeof ClaimCodeSchema>;

/** The answer to issuing a code: the only time the code itself is shown. */
export const ClaimCodeIssuedSchema = ClaimCodeSchema.extend({ code: z.string() });
export type ClaimCodeIssued = z.infer<typeof ClaimCodeIssuedSchema>;

export const REGISTRATION_STATES = ['unconfirmed', 'pending', 'approved', 'rejected'] as const;
export type RegistrationState = (typeof REGISTRATION_STATES)[number];

export const RegistrationSchema = z.object({
  id: z.uuid(),
  firstname: z.string(),
  lastname: z.string(),
  email: z.string(),
  language: LanguageSchema,
  flowbox_serial: z.string().nullable(),
  status: z.enum(REGISTRATION_STATES),
  customer_id: z.uuid(),
  site_id: z.uuid(),
  site_name: z.string(),
  building_id: z.uuid(),
  zone_id: z.uuid(),
  zone_name: z.string(),
  created_at: z.string(),
  confirmed_at: z.string().nullable(),
  decided_at: z.string().nullable(),
});
export type Registration = z.infer<typeof RegistrationSchema>;

/**
 * What the managers' list filters by. An unconfirmed registration is nobody's business but its
 * sender's until the emailed link is opened (docs/permissions.md "Registration"): not offered.
 */
export const REVIEWABLE_REGISTRATION_STATES = ['pending', 'approved', 'rejected'] as const;
export type ReviewableRegistrationState = (typeof REVIEWABLE_REGISTRATION_STATES)[number];

export const RegistrationListQuerySchema = ListQuerySchema.extend({
  status: z.enum(REVIEWABLE_REGISTRATION_STATES, 'validation.select').optional(),
});

/** The registration's emailed link, and the password its opener chooses for the account. */
export const RegistrationConfirmSchema = z.object({
  token: z.string({ error: 'validation.required' }).min(1, 'validation.required').max(500),
  password: passwordField,
});
