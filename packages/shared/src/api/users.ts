import { z } from 'zod';
import { ALERT_CATEGORIES } from '../alerts.ts';
import { PERMISSIONS } from '../permissions.ts';
import { LANGUAGES, ROLES } from '../roles.ts';
import { emailField, optionalText, passwordField, requiredText, uuidField } from '../validation.ts';
import { OffsetSchema } from './errors.ts';

export const LanguageSchema = z.enum(LANGUAGES, 'validation.select');
export const RoleSchema = z.union([
  z.literal(ROLES.flovea_manager),
  z.literal(ROLES.customer_manager),
  z.literal(ROLES.site_manager),
  z.literal(ROLES.end_user),
  z.literal(ROLES.plumber),
]);

export const AlertUserSettingSchema = z.object({ email: z.boolean() });
export const AlertsSettingsSchema = z.object(
  Object.fromEntries(ALERT_CATEGORIES.map((c) => [c, AlertUserSettingSchema])) as Record<
    (typeof ALERT_CATEGORIES)[number],
    typeof AlertUserSettingSchema
  >,
);
/** Only the eight categories (spec §3): an unknown one is refused rather than silently dropped. */
export const AlertsSettingsPatchSchema = AlertsSettingsSchema.partial().strict();
/**
 * Per-zone overrides of the user's alert settings: zone id → category → setting (spec §3). A
 * category absent from a zone follows the user's own setting; the whole map is replaced on update,
 * and its zones must be ones the user is told about (docs/alerts.md "Who is told").
 */
export const AlertsInstanceSettingsSchema = z.record(z.uuid('validation.invalid'), AlertsSettingsPatchSchema);

export const PermissionValueSchema = z.enum(['authorised', 'denied'], 'validation.select');
export const PermissionsSchema = z.object(
  Object.fromEntries(PERMISSIONS.map((p) => [p, PermissionValueSchema])) as Record<
    (typeof PERMISSIONS)[number],
    typeof PermissionValueSchema
  >,
);
export const PermissionsPatchSchema = PermissionsSchema.partial();

export const UserSchema = z.object({
  id: z.uuid(),
  firstname: z.string(),
  lastname: z.string(),
  email: z.string(),
  username: z.string(),
  role: RoleSchema,
  role_name: z.enum(['flovea_manager', 'customer_manager', 'site_manager', 'end_user', 'plumber']),
  language: LanguageSchema,
  last_logged_in: z.string().nullable(),
  customer_id: z.uuid().nullable(),
  site_id: z.array(z.uuid()),
  /** An end user's zones (docs/permissions.md); empty for everyone else. */
  zone_id: z.array(z.uuid()),
  address: z.string().nullable(),
  alert_notification_enabled: z.boolean(),
  alerts_settings: AlertsSettingsSchema,
  alerts_instance_settings: AlertsInstanceSettingsSchema,
  permissions: PermissionsSchema,
  status: z.enum(['invited', 'active', 'suspended']),
  created_at: z.string(),
});
export type User = z.infer<typeof UserSchema>;

export const TokensSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
});
export type Tokens = z.infer<typeof TokensSchema>;

/** An invitation's password, once saved: the message, and the new user's first session (as a login's). */
export const PasswordSetSchema = TokensSchema.extend({ message: z.string() });
export type PasswordSet = z.infer<typeof PasswordSetSchema>;

export const LoginSchema = z.object({
  email: emailField,
  password: z
    .string({ error: 'validation.required' })
    .min(1, 'validation.required')
    .max(200, 'validation.too_long'),
});
export type LoginInput = z.infer<typeof LoginSchema>;

export const LogoutSchema = z.object({ refresh_token: z.string().max(4000).optional() });

export const RequestResetPasswordSchema = z.object({ email: emailField });
export const TokenPasswordSchema = z.object({
  token: z.string({ error: 'validation.required' }).min(1, 'validation.required').max(500),
  password: passwordField,
});
export type TokenPasswordInput = z.infer<typeof TokenPasswordSchema>;

export const UpdatePasswordSchema = z.object({
  current_password: z
    .string({ error: 'validation.required' })
    .min(1, 'validation.required')
    .max(200, 'validation.too_long'),
  password: passwordField,
});
export type UpdatePasswordInput = z.infer<typeof UpdatePasswordSchema>;

/**
 * Registration of an end user whose building is pre-equipped with a flowbox (spec §1): the claim
 * code its zone's manager handed out, and optionally the serial printed on the device
 * (docs/permissions.md "Registration"). No password: whoever opens the emailed link, the holder of
 * the mailbox, chooses it (RegistrationConfirmSchema), so an address typed by a stranger never
 * becomes an account whose password the stranger knows.
 */
export const RegisterSchema = z.object({
  firstname: requiredText(),
  lastname: requiredText(),
  email: emailField,
  language: LanguageSchema.default('en'),
  claim_code: requiredText(40),
  flowbox_serial: optionalText(64).optional(),
  terms_accepted: z.literal(true, 'validation.terms'),
});
export type RegisterInput = z.infer<typeof RegisterSchema>;

/** Fields every manager record has (spec §3: managers carry an address; language defaults to en). */
const managerFields = {
  firstname: requiredText(),
  lastname: requiredText(),
  email: emailField,
  language: LanguageSchema.default('en'),
  address: optionalText().nullable().optional(),
};

export const ManagerCreateSchema = z.object({
  ...managerFields,
  permissions: PermissionsPatchSchema.optional(),
});
export type ManagerCreateInput = z.input<typeof ManagerCreateSchema>;

/** Each id at most once: a repeated site or zone is a mistake, refused rather than stored twice. */
const distinct = (ids: string[]) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length;

export const SiteManagerCreateSchema = ManagerCreateSchema.extend({
  site_id: z
    .array(uuidField, 'validation.at_least_one_site')
    .min(1, 'validation.at_least_one_site')
    .max(1000)
    .refine(distinct, 'validation.unique'),
});
export type SiteManagerCreateInput = z.input<typeof SiteManagerCreateSchema>;

export const ManagerUpdateSchema = z.object({
  firstname: requiredText().optional(),
  lastname: requiredText().optional(),
  email: emailField.optional(),
  language: LanguageSchema.optional(),
  address: optionalText().nullable().optional(),
  alert_notification_enabled: z.boolean().optional(),
  alerts_settings: AlertsSettingsPatchSchema.optional(),
  alerts_instance_settings: AlertsInstanceSettingsSchema.optional(),
  permissions: PermissionsPatchSchema.optional(),
});
export type ManagerUpdateInput = z.input<typeof ManagerUpdateSchema>;

export const SiteManagerUpdateSchema = ManagerUpdateSchema.extend({
  site_id: z
    .array(uuidField)
    .min(1, 'validation.at_least_one_site')
    .max(1000)
    .refine(distinct, 'validation.unique')
    .optional(),
});
export type SiteManagerUpdateInput = z.input<typeof SiteManagerUpdateSchema>;

/** The update endpoints answer the record, and new tokens when the caller updated itself (spec §7). */
export const ManagerUpdateAnswerSchema = z.object({
  user: UserSchema,
  access_token: z.string().optional(),
  refresh_token: z.string().optional(),
});
export type ManagerUpdateAnswer = z.infer<typeof ManagerUpdateAnswerSchema>;

/*
 * End users and plumbers (docs/permissions.md) take only their own fields: an end user is bound to
 * zones, a plumber assigned to sites, and the other family's places are refused by name rather than
 * silently ignored; any other unknown field is refused too (strict).
 */
const noSites = { site_id: z.undefined('validation.zones_not_sites').optional() };
const noZones = { zone_id: z.undefined('validation.sites_not_zones').optional() };
/** A suspended account cannot sign in and its sessions end; lifting it restores both. */
const suspended = { suspended: z.boolean().optional() };

/** End users: invited by a manager of their zones, bound to one or more zones. */
export const EndUserCreateSchema = ManagerCreateSchema.extend({
  zone_id: z
    .array(uuidField, 'validation.at_least_one_zone')
    .min(1, 'validation.at_least_one_zone')
    .max(100)
    .refine(distinct, 'validation.unique'),
  ...noSites,
}).strict();
export type EndUserCreateInput = z.input<typeof EndUserCreateSchema>;
export const EndUserUpdateSchema = ManagerUpdateSchema.extend({
  zone_id: z
    .array(uuidField)
    .min(1, 'validation.at_least_one_zone')
    .max(100)
    .refine(distinct, 'validation.unique')
    .optional(),
  ...suspended,
  ...noSites,
}).strict();
export type EndUserUpdateInput = z.input<typeof EndUserUpdateSchema>;

/** Plumbers: invited like site managers, limited to the sites assigned. */
export const PlumberUserCreateSchema = SiteManagerCreateSchema.extend(noZones).strict();
export const PlumberUserUpdateSchema = SiteManagerUpdateSchema.extend({ ...suspended, ...noZones }).strict();
export type PlumberUserUpdateInput = z.input<typeof PlumberUserUpdateSchema>;

export const SiteManagerListQuerySchema = z.object({ site_id: z.uuid('validation.invalid').optional() });

/**
 * An email's delivery: `stored` when no mail relay is configured (the outbox is where it is read);
 * otherwise `queued` (waiting for its next try), `sending`, then `sent` or, after its last try or a
 * refusal by the relay, `failed`.
 */
export const EMAIL_STATUSES = ['stored', 'queued', 'sending', 'sent', 'failed'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

export const OutboxEmailSchema = z.object({
  id: z.uuid(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  kind: z.string(),
  status: z.enum(EMAIL_STATUSES),
  /** Delivery tries made so far. */
  attempts: z.number().int(),
  /** The relay's last refusal, when a try failed. */
  error: z.string().nullable(),
  /** When a queued email's next try may start. */
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
});
export type OutboxEmail = z.infer<typeof OutboxEmailSchema>;

/**
 * The people screen (`GET /v1/users/list`): everyone with access to the caller's scope, across the
 * five roles (issue 18). The three manager families keep their own calls; this one only lists.
 */
export const PEOPLE_ROLE_NAMES = [
  'flovea_manager',
  'customer_manager',
  'site_manager',
  'end_user',
  'plumber',
] as const;
export type PeopleRoleName = (typeof PEOPLE_ROLE_NAMES)[number];
export const PEOPLE_PAGE_MAX = 200;

export const PeopleListQuerySchema = z.object({
  search: z.string().trim().max(120, 'validation.too_long').optional(),
  role: z.enum(PEOPLE_ROLE_NAMES, 'validation.select').optional(),
  limit: z.coerce
    .number('validation.number')
    .int('validation.integer')
    .min(1, 'validation.min_one')
    .max(PEOPLE_PAGE_MAX, 'validation.max')
    .default(50),
  offset: OffsetSchema,
});
export type PeopleListQuery = z.input<typeof PeopleListQuerySchema>;

const NamedPlaceSchema = z.object({ id: z.uuid(), name: z.string() });

export const PersonSchema = z.object({
  id: z.uuid(),
  firstname: z.string(),
  lastname: z.string(),
  email: z.string(),
  role: RoleSchema,
  role_name: z.enum(PEOPLE_ROLE_NAMES),
  customer_id: z.uuid().nullable(),
  customer_name: z.string().nullable(),
  /** A site manager's or plumber's sites (those the caller sees). */
  sites: z.array(NamedPlaceSchema),
  /** An end user's zones (those the caller sees). */
  zones: z.array(NamedPlaceSchema),
  /** null when the person never signed in. */
  last_login_at: z.string().nullable(),
  /** `invited`: no password set yet; `suspended`: may not sign in. */
  status: z.enum(['invited', 'active', 'suspended']),
});
export type Person = z.infer<typeof PersonSchema>;

export const PeopleListSchema = z.object({ items: z.array(PersonSchema), total: z.number().int() });
export type PeopleList = z.infer<typeof PeopleListSchema>;
