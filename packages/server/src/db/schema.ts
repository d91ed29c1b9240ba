import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  customType,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  type AcquisitionType,
  type AlertAnswerValue,
  type AlertCategory,
  type AlertDetails,
  type AlertState,
  type AlertsSettings,
  type BillingType,
  type BuildingType,
  type CommandStatus,
  type Contact,
  type Currency,
  type EmailStatus,
  type EventOrigin,
  type FirmwareFailureReason,
  type FirmwareImageStatus,
  type FirmwareSkipReason,
  type FirmwareUpdateState,
  type FlowboxCommandName,
  type FlowboxModel,
  type MonitoringMetric,
  type MonitoringStatus,
  type NotificationPreferences,
  type OpeningHours,
  type PairingState,
  type PermissionSet,
  type PlumberSpeciality,
  type PushMessageStatus,
  type PushUrgency,
  type RolloutHaltReason,
  type RolloutState,
  type ScheduleFrequency,
  type ServiceLevel,
  type SubscriptionStatus,
  type ValveState,
  type VolumeUnit,
  type WaterPointType,
  type WaterTemperature,
  type Weekday,
  type WebhookDeliveryStatus,
  type WebhookEventType,
  type ZoneProfile,
  type Role,
  type StoredCrossing,
  type HeldReading,
} from '@flowbox/shared';

const id = () =>
  uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`);
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const customers = pgTable(
  'customers',
  {
    id: id(),
    name: text('name').notNull(),
    logo: text('logo'),
    operationsContact: jsonb('operations_contact').$type<Contact>(),
    technicalContact: jsonb('technical_contact').$type<Contact>(),
    administrativeContact: jsonb('administrative_contact').$type<Contact>(),
    subscriptionDate: date('subscription_date', { mode: 'string' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // The fleet list sorted by customer walks customers in name order (docs/fleet.md "Speed").
  (t) => [index('customers_name_idx').on(t.name)],
);

export const sites = pgTable(
  'sites',
  {
    id: id(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    plan: text('plan'),
    logo: text('logo'),
    /** WGS84 degrees, set on the map or typed (docs/maps.md); both or neither. */
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('sites_customer_idx').on(t.customerId)],
);

export const users = pgTable(
  'users',
  {
    id: id(),
    email: text('email').notNull(),
    username: text('username').notNull(),
    firstname: text('firstname').notNull(),
    lastname: text('lastname').notNull(),
    passwordHash: text('password_hash'),
    role: smallint('role').notNull().$type<Role>(),
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'cascade' }),
    language: text('language').notNull().default('en').$type<'en' | 'fr'>(),
    address: text('address'),
    lastLoggedIn: timestamp('last_logged_in', { withTimezone: true }),
    alertNotificationEnabled: boolean('alert_notification_enabled').notNull().default(true),
    alertsSettings: jsonb('alerts_settings').$type<Partial<AlertsSettings>>().notNull().default({}),
    alertsInstanceSettings: jsonb('alerts_instance_settings')
      .$type<Record<string, Partial<AlertsSettings>>>()
      .notNull()
      .default({}),
    permissions: jsonb('permissions').$type<Partial<PermissionSet>>().notNull().default({}),
    /** How the user is told of alerts (docs/alerts.md "How each person is told"); null: the defaults. */
    notificationPreferences: jsonb('notification_preferences').$type<NotificationPreferences>(),
    /** A suspended account (end users, plumbers) cannot sign in; its sessions end (docs/permissions.md). */
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('users_email_unique').on(t.email), index('users_customer_idx').on(t.customerId)],
);

/** spec §3: a user's site_id list. */
export const userSites = pgTable(
  'user_sites',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    siteId: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.siteId] }), index('user_sites_site_idx').on(t.siteId)],
);

/** A login session: the family of rotating refresh tokens. Revoking it ends every token in it. */
export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    userAgent: text('user_agent'),
    ip: text('ip'),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: text('revoked_reason'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('refresh_tokens_session_idx').on(t.sessionId)],
);

/**
 * Single-use tokens of a user: links sent by email (password reset, invitation) and the live
 * stream's tickets (auth/live-tickets.ts); only a hash is kept.
 */
export const userTokens = pgTable(
  'user_tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull().$type<'reset' | 'invite' | 'live_ticket'>(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('user_tokens_hash_unique').on(t.tokenHash), index('user_tokens_user_idx').on(t.userId)],
);

export const loginFailures = pgTable(
  'login_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    key: text('key').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('login_failures_key_at_idx').on(t.key, t.at)],
);

export const emails = pgTable(
  'emails',
  {
    id: id(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    kind: text('kind').notNull(),
    /** mail/mailer.ts: `stored` without a relay; otherwise queued → sending → sent, or failed. */
    status: text('status').notNull().$type<EmailStatus>(),
    error: text('error'),
    /** Delivery tries made so far. */
    attempts: integer('attempts').notNull().default(0),
    /** When the next try may start (queued), or when a try's lease ends (sending). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('emails_created_idx').on(t.createdAt),
    index('emails_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} in ('queued', 'sending')`),
  ],
);

/**
 * End-user registrations (spec §1; docs/permissions.md "Registration"): made with a claim code,
 * `unconfirmed` until the emailed link is opened, then `pending` until a manager of the zone
 * approves or refuses it (or `approved` at once when the code says so).
 */
export const registrations = pgTable(
  'registrations',
  {
    id: id(),
    firstname: text('firstname').notNull(),
    lastname: text('lastname').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    language: text('language').notNull().$type<'en' | 'fr'>(),
    flowboxSerial: text('flowbox_serial'),
    status: text('status')
      .notNull()
      .default('pending')
      .$type<'unconfirmed' | 'pending' | 'approved' | 'rejected'>(),
    zoneId: uuid('zone_id').references(() => zones.id, { onDelete: 'cascade' }),
    claimCodeId: uuid('claim_code_id').references(() => claimCodes.id, { onDelete: 'set null' }),
    confirmTokenHash: text('confirm_token_hash'),
    confirmExpiresAt: timestamp('confirm_expires_at', { withTimezone: true }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('registrations_zone_idx').on(t.zoneId, t.status),
    uniqueIndex('registrations_confirm_token_unique').on(t.confirmTokenHash),
  ],
);

/**
 * Claim codes (docs/permissions.md "Registration"): what a zone's manager hands its occupants. Only
 * the code's SHA-256 is kept; `maxUses` null is unlimited until `expiresAt` or revocation.
 */
export const claimCodes = pgTable(
  'claim_codes',
  {
    id: id(),
    zoneId: uuid('zone_id')
      .notNull()
      .references(() => zones.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    /** The code's last four characters, so a manager can tell its codes apart. */
    hint: text('hint').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    maxUses: integer('max_uses'),
    uses: integer('uses').notNull().default(0),
    autoApprove: boolean('auto_approve').notNull().default(false),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('claim_codes_hash_unique').on(t.codeHash), index('claim_codes_zone_idx').on(t.zoneId)],
);

/** An end user's zones (docs/permissions.md): what it sees, and all it sees. */
export const userZones = pgTable(
  'user_zones',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    zoneId: uuid('zone_id')
      .notNull()
      .references(() => zones.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.zoneId] }), index('user_zones_zone_idx').on(t.zoneId)],
);

export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
});

/**
 * The activity log (spec §3 event facets). Written in the same transaction as the change it
 * records. Only the customer is a foreign key (its log goes with it); site, building and zone ids
 * stay after those are deleted, so "site deleted" lines remain in the customer's log.
 */
export const events = pgTable(
  'events',
  {
    id: id(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    actionName: text('action_name').notNull(),
    objectName: text('object_name').notNull(),
    objectId: uuid('object_id'),
    objectLabel: text('object_label').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    userName: text('user_name'),
    origin: text('origin').notNull(),
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'cascade' }),
    siteId: uuid('site_id'),
    buildingId: uuid('building_id'),
    zoneId: uuid('zone_id'),
    changedFields: jsonb('changed_fields').$type<string[]>().notNull().default([]),
  },
  (t) => [
    index('events_customer_idx').on(t.customerId, t.createdAt, t.id),
    index('events_site_idx').on(t.siteId, t.createdAt, t.id),
    index('events_building_idx').on(t.buildingId, t.createdAt, t.id),
    index('events_zone_idx').on(t.zoneId, t.createdAt, t.id),
  ],
);

/**
 * A customer's webhooks (docs/webhooks.md): an address, the events it is told of and the secret
 * its requests are signed with, kept readable because the server signs with it (never answered
 * but at creation and rotation). `consecutive_failures` and `failing_since` decide its disabling.
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: id(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    events: text('events').array().notNull().$type<WebhookEventType[]>(),
    enabled: boolean('enabled').notNull().default(true),
    secret: text('secret').notNull(),
    /** 'failures' when the server disabled it; null when enabled or disabled by a user. */
    disabledReason: text('disabled_reason').$type<'failures'>(),
    /** Deliveries failed for good since the last one delivered. */
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    /** The first failed try since the last delivery. */
    failingSince: timestamp('failing_since', { withTimezone: true }),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('webhooks_customer_idx').on(t.customerId)],
);

/**
 * What webhooks are told of, written by the trigger on `events` (migration 0029) with the log
 * line's id, or by "send a test event": the payload's `data`, the same in every try.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: uuid('id').primaryKey(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
  },
  (t) => [index('webhook_events_created_idx').on(t.createdAt)],
);

/** The webhook delivery queue and its log (webhooks/webhook-delivery.service.ts): one event to one webhook. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    status: text('status').notNull().$type<WebhookDeliveryStatus>(),
    attempts: integer('attempts').notNull().default(0),
    /** When the next try may start (queued), or when a try's lease ends (sending). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    responseStatus: integer('response_status'),
    error: text('error'),
    createdAt: createdAt(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} in ('queued', 'sending')`),
    index('webhook_deliveries_webhook_idx').on(t.webhookId, t.createdAt, t.id),
    index('webhook_deliveries_event_idx').on(t.eventId),
  ],
);

/** spec §3 building. Deleting its site deletes it, and with it its floors, zones and water points. */
export const buildings = pgTable(
  'buildings',
  {
    id: id(),
    siteId: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type').notNull().$type<BuildingType>(),
    plan: text('plan'),
    picture: text('picture'),
    address: text('address').notNull(),
    city: text('city').notNull(),
    zipCode: text('zip_code').notNull(),
    country: text('country').notNull(),
    nbfloor: integer('nbfloor'),
    occupants: integer('occupants'),
    nbequipment: integer('nbequipment'),
    openingHours: jsonb('opening_hours').$type<OpeningHours>(),
    timezone: text('timezone').notNull(),
    volumeUnit: text('volume_unit').notNull().$type<VolumeUnit>(),
    currency: text('currency').notNull().$type<Currency>(),
    firstDayOfWeek: text('first_day_of_week').notNull().$type<Weekday>(),
    weekend: jsonb('weekend').$type<Weekday[]>().notNull(),
    /** WGS84 degrees, set on the map or typed (docs/maps.md); both or neither. */
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    pricePerUnit: numeric('price_per_unit', { precision: 12, scale: 4 }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('buildings_site_idx').on(t.siteId)],
);

/** spec §3 floor. Its paired flowbox names it (flowboxes.floor_id, set at pairing). */
export const floors = pgTable(
  'floors',
  {
    id: id(),
    buildingId: uuid('building_id')
      .notNull()
      .references(() => buildings.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    occupants: integer('occupants'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('floors_building_idx').on(t.buildingId)],
);

/** spec §3 zone. Deleting its floor detaches it (floor_id set null); deleting its building deletes it. */
export const zones = pgTable(
  'zones',
  {
    id: id(),
    buildingId: uuid('building_id')
      .notNull()
      .references(() => buildings.id, { onDelete: 'cascade' }),
    floorId: uuid('floor_id').references(() => floors.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    profile: text('profile').notNull().$type<ZoneProfile>(),
    serviceLevel: text('service_level').notNull().default('basic').$type<ServiceLevel>(),
    /** Overrides of the building's; null follows the building. */
    openingHours: jsonb('opening_hours').$type<OpeningHours>(),
    pricePerUnit: numeric('price_per_unit', { precision: 12, scale: 4 }),
    occupants: integer('occupants'),
    waterPointNumber: integer('water_point_number'),
    scheduledClosingAuthorised: boolean('scheduled_closing_authorised').notNull().default(false),
    leakDetectionMode: boolean('leak_detection_mode').notNull().default(false),
    maintenanceMode: boolean('maintenance_mode').notNull().default(false),
    valveState: text('valve_state').notNull().default('opened').$type<ValveState>(),
    flowboxModel: text('flowbox_model').notNull().$type<FlowboxModel>(),
    waterTemperature: text('water_temperature').notNull().$type<WaterTemperature>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('zones_building_idx').on(t.buildingId), index('zones_floor_idx').on(t.floorId)],
);

export const waterPoints = pgTable(
  'water_points',
  {
    id: id(),
    zoneId: uuid('zone_id')
      .notNull()
      .references(() => zones.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    type: text('type').notNull().$type<WaterPointType>(),
    location: text('location'),
    nominalFlowLpm: numeric('nominal_flow_lpm', { precision: 12, scale: 4 }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('water_points_zone_idx').on(t.zoneId)],
);

/**
/** Binary data: a Buffer on node-postgres, a Uint8Array on PGlite; files/ reads both as a Buffer. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * Stored files (docs/decisions.md "Files in PostgreSQL"): one row each, its bytes in `file_chunks`.
 * `chunk_size` is the size of every chunk but the last, kept per file so that a later size does not
 * misread older files. A file belongs to the row that points at it (an image, a firmware image).
 */
export const files = pgTable('files', {
  id: uuid('id').primaryKey().defaultRandom(),
  byteSize: bigint('byte_size', { mode: 'number' }).notNull(),
  sha256: text('sha256').notNull(),
  contentType: text('content_type').notNull(),
  chunkSize: integer('chunk_size').notNull(),
  createdAt: createdAt(),
});

/** A file's bytes, `chunk_size` at a time: a range read fetches only the chunks it covers. */
export const fileChunks = pgTable(
  'file_chunks',
  {
    fileId: uuid('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    index: integer('index').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.index] })],
);

/**
 * Uploaded images (customer and site logos, site and building plans, building pictures). The bytes
 * are the file `file_id`; the row says whose it is, which decides who may read it. `file_name` is
 * the file an installation kept in DATA_DIR/uploads before files moved to the database: it is
 * imported at start (images/images.import.ts), and `file_id` is null only until then.
 */
export const images = pgTable(
  'images',
  {
    id: uuid('id').primaryKey(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    siteId: uuid('site_id').references(() => sites.id, { onDelete: 'cascade' }),
    buildingId: uuid('building_id').references(() => buildings.id, { onDelete: 'cascade' }),
    fileId: uuid('file_id').references(() => files.id),
    fileName: text('file_name'),
    contentType: text('content_type').notNull(),
    byteSize: integer('byte_size').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('images_customer_idx').on(t.customerId),
    index('images_site_idx').on(t.siteId),
    index('images_building_idx').on(t.buildingId),
  ],
);

/**
 * A pricing plan (spec §3, §5): what stays the same across its prices. The prices themselves live
 * in versions, so that the "new price" flag keeps the history (docs/billing.md). `regions` lists
 * the ISO 3166-1 countries whose buildings may subscribe to it.
 */
export const pricingPlans = pgTable('pricing_plans', {
  id: id(),
  name: text('name').notNull(),
  isDefault: boolean('is_default').notNull().default(false),
  regions: jsonb('regions').$type<string[]>().notNull(),
  archivedAt: timestamp('archived_at', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * One price of a plan, in force from `from_date` until the next version's `from_date`. The
 * "new price" flag archives the current version (`archived_at`) and adds the next one; a
 * consumption is priced by the version in force on its day (spec §4 "a new pricing plan archives
 * the current one").
 */
export const pricingPlanVersions = pgTable(
  'pricing_plan_versions',
  {
    id: id(),
    planId: uuid('plan_id')
      .notNull()
      .references(() => pricingPlans.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    fromDate: date('from_date', { mode: 'string' }).notNull(),
    billingType: text('billing_type').notNull().$type<BillingType>(),
    acquisitionType: text('acquisition_type').notNull().$type<AcquisitionType>(),
    currency: text('currency').notNull().$type<Currency>(),
    volumeUnit: text('volume_unit').notNull().$type<VolumeUnit>(),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('pricing_plan_versions_plan_version_unique').on(t.planId, t.version),
    uniqueIndex('pricing_plan_versions_plan_from_unique').on(t.planId, t.fromDate),
  ],
);

/** spec §5 price ranges of one version, in its volume unit per billing period; `position` from 0. */
export const pricingPlanRanges = pgTable(
  'pricing_plan_ranges',
  {
    versionId: uuid('version_id')
      .notNull()
      .references(() => pricingPlanVersions.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    volumeStart: numeric('volume_start', { precision: 18, scale: 4 }).notNull(),
    volumeEnd: numeric('volume_end', { precision: 18, scale: 4 }),
    pricePerUnit: numeric('price_per_unit', { precision: 18, scale: 6 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.versionId, t.position] })],
);

/**
 * A zone's subscription (spec §3, §5). Choosing another plan or service level ends the active one
 * and starts the next, so what applied on any past day stays known. At most one is active per
 * zone. The service level lives here, not on the zone: it is what the customer pays for, and the
 * premium gate reads it (docs/billing.md).
 */
export const zoneSubscriptions = pgTable(
  'zone_subscriptions',
  {
    id: id(),
    zoneId: uuid('zone_id')
      .notNull()
      .references(() => zones.id, { onDelete: 'cascade' }),
    planId: uuid('plan_id')
      .notNull()
      .references(() => pricingPlans.id, { onDelete: 'restrict' }),
    serviceLevel: text('service_level').notNull().$type<ServiceLevel>(),
    status: text('status').notNull().default('active').$type<SubscriptionStatus>(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }),
    renewalDate: date('renewal_date', { mode: 'string' }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('zone_subscriptions_active_unique')
      .on(t.zoneId)
      .where(sql`${t.status} = 'active'`),
    index('zone_subscriptions_zone_idx').on(t.zoneId, t.startDate),
    index('zone_subscriptions_plan_idx').on(t.planId),
    index('zone_subscriptions_renewal_idx').on(t.renewalDate),
  ],
);

/**
 * A flowbox (spec §3) paired, or being paired, in a zone. One row per pairing: unpairing, refusing
 * or detaching deletes it (the activity log keeps the story), so a serial paired again starts
 * clean. The last reported state lives here; telemetry history is its own table (issue #5).
 */
export const flowboxes = pgTable(
  'flowboxes',
  {
    id: id(),
    /** A small key for the rows written by the million (telemetry_readings.flowbox_num). */
    num: integer('num').generatedAlwaysAsIdentity().notNull(),
    serial: text('serial').notNull(),
    zoneId: uuid('zone_id')
      .notNull()
      .references(() => zones.id, { onDelete: 'cascade' }),
    /** spec §3 floor "paired flowbox". */
    floorId: uuid('floor_id').references(() => floors.id, { onDelete: 'set null' }),
    pairingState: text('pairing_state').notNull().$type<PairingState>(),
    /**
     * Hash of the factory secret from the device's label, typed at step 1: it lets the device sign
     * in as `bootstrap-{serial}` to ask for pairing (docs/devices.md).
     */
    factorySecretHash: text('factory_secret_hash'),
    /** The device's latest pairing request, answered when the operator decides (step 3). */
    pairingRequestId: uuid('pairing_request_id'),
    pairedAt: timestamp('paired_at', { withTimezone: true }),
    /** What the device announced at step 2, compared with the zone's at step 3. */
    model: text('model').$type<FlowboxModel>(),
    waterTemperature: text('water_temperature').$type<WaterTemperature>(),
    connected: boolean('connected').notNull().default(false),
    /** null: never connected (spec §4). */
    connectionChangedAt: timestamp('connection_changed_at', { withTimezone: true }),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    temperature: numeric('temperature', { precision: 6, scale: 2 }),
    humidity: numeric('humidity', { precision: 5, scale: 2 }),
    flowLpm: numeric('flow_lpm', { precision: 12, scale: 4 }),
    flowmeterIndexL: numeric('flowmeter_index_l', { precision: 18, scale: 3 }),
    valve: text('valve').$type<ValveState>(),
    maintenanceMode: boolean('maintenance_mode'),
    leakDetectionMode: boolean('leak_detection_mode'),
    networkInterface: text('network_interface'),
    networkAddress: text('network_address'),
    networkGateway: text('network_gateway'),
    wifiSsid: text('wifi_ssid'),
    espVersion: text('esp_version'),
    boardVersion: text('board_version'),
    firmwareVersion: text('firmware_version'),
    /** Highest sequence number received from the device. */
    lastSequence: bigint('last_sequence', { mode: 'number' }),
    /**
     * The device's clock against the server's (docs/automation.md "Device clocks"): receipt time
     * minus the reading's `at`, in ms, as placed by `placeReading`; negative when the device's clock
     * is ahead. null: no reading yet.
     */
    clockOffsetMs: bigint('clock_offset_ms', { mode: 'number' }),
    /** The `at` (device clock) of the newest reading, by seq: where the device's clock stood. */
    lastReadingAt: timestamp('last_reading_at', { withTimezone: true }),
    /**
     * The minute of `last_reading_at` (UTC), kept by PostgreSQL (migration 0022): the fleet list
     * sorts by it, the minute it shows. Its index changes once a minute at most, so the update each
     * telemetry batch makes to the row stays in place (HOT, docs/performance.md "Ingest").
     */
    lastReadingMinute: timestamp('last_reading_minute', { withTimezone: true }).generatedAlwaysAs(
      sql`date_trunc('minute', "last_reading_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`,
    ),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('flowboxes_serial_unique').on(t.serial),
    uniqueIndex('flowboxes_num_idx').on(t.num),
    index('flowboxes_zone_idx').on(t.zoneId),
    index('flowboxes_floor_idx').on(t.floorId),
    index('flowboxes_connected_idx').on(t.connected, t.lastSeenAt),
    // The fleet list (docs/fleet.md "Speed"): serial prefix search, and its sorts and filters
    // walked in index order with the serial as tie-break (the keyset cursor's order).
    index('flowboxes_serial_search_idx').using('btree', sql`lower(${t.serial}) text_pattern_ops`),
    index('flowboxes_last_reading_idx').on(
      sql`coalesce(${t.lastReadingMinute}, '1970-01-01T00:00:00Z'::timestamptz)`,
      t.serial,
    ),
    index('flowboxes_firmware_idx').on(sql`coalesce(${t.firmwareVersion}, '')`, t.serial),
    index('flowboxes_model_idx').on(t.model, t.serial),
  ],
);

/**
 * Per-device broker credentials (DESIGN.md §3): issued when pairing is prepared, revoked when the
 * pairing ends. Only a hash of the secret is kept. A row outlives its flowbox so that a revoked
 * secret stays on record.
 */
export const flowboxCredentials = pgTable(
  'flowbox_credentials',
  {
    id: id(),
    serial: text('serial').notNull(),
    flowboxId: uuid('flowbox_id').references(() => flowboxes.id, { onDelete: 'set null' }),
    secretHash: text('secret_hash').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('flowbox_credentials_live_unique')
      .on(t.serial)
      .where(sql`${t.revokedAt} IS NULL`),
    index('flowbox_credentials_flowbox_idx').on(t.flowboxId),
  ],
);

/**
 * Commands sent to devices, each its own durable job (DESIGN.md §2, §3): an instance claims the
 * due ones with FOR UPDATE SKIP LOCKED, (re)publishes them until acknowledged or expired, and the
 * outcome stays here.
 */
export const deviceCommands = pgTable(
  'device_commands',
  {
    id: id(),
    flowboxId: uuid('flowbox_id')
      .notNull()
      .references(() => flowboxes.id, { onDelete: 'cascade' }),
    /** An API command's name, or `update_firmware` (sent by firmware updates, not by the commands API). */
    name: text('name').notNull().$type<FlowboxCommandName | 'update_firmware'>(),
    params: jsonb('params').$type<Record<string, unknown>>().notNull().default({}),
    issuedBy: uuid('issued_by').references(() => users.id, { onDelete: 'set null' }),
    issuedByName: text('issued_by_name'),
    origin: text('origin').notNull().$type<EventOrigin>(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    status: text('status').notNull().$type<CommandStatus>(),
    result: jsonb('result').$type<Record<string, unknown>>(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('device_commands_flowbox_idx').on(t.flowboxId, t.issuedAt),
    index('device_commands_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} IN ('pending', 'sent')`),
  ],
);

/**
 * Idempotency receipts of device messages (DESIGN.md §3): a redelivered or replayed message (same
 * flowbox + sequence) is applied once. Telemetry (issue #5) keys its own rows the same way.
 */
export const flowboxReceipts = pgTable(
  'flowbox_receipts',
  {
    flowboxId: uuid('flowbox_id')
      .notNull()
      .references(() => flowboxes.id, { onDelete: 'cascade' }),
    sequence: bigint('sequence', { mode: 'number' }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.flowboxId, t.sequence] })],
);

/*
 * Telemetry and consumption (DESIGN.md §4, issue #6). None of these tables refers to the flowbox
 * row: unpairing deletes that row, and a zone's history must outlive the pairing that measured it.
 * They go with their zone. Volumes are integer millilitres (exact sums, no float drift); units are
 * converted only for display and billing.
 */

/**
 * Raw readings, append-only, one per telemetry message, keyed by (flowbox, seq): the idempotency
 * key, so a redelivered or replayed reading is stored once. `flowbox_id` is the pairing's id (a
 * device paired again starts a new sequence under a new id).
 */
export const telemetryReadings = pgTable(
  'telemetry_readings',
  {
    seq: bigint('seq', { mode: 'number' }).notNull(),
    /** End of the measured interval (device clock, as reported): the partition key (weeks). */
    measuredAt: timestamp('measured_at', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    /**
     * Where detection placed the reading's end on the server's time line, and whether that placement
     * was live (clock.ts): the backtest replays it as ingest judged it. Null: stored before 0025.
     */
    placedAt: timestamp('placed_at', { withTimezone: true }),
    zoneId: uuid('zone_id')
      .notNull()
      .references(() => zones.id, { onDelete: 'cascade' }),
    /** The flowbox's small key (`flowboxes.num`): 4 bytes a row instead of a uuid's 16. */
    flowboxNum: integer('flowbox_num').notNull(),
    intervalS: integer('interval_s').notNull(),
    /** At most 25 L/s over 3600 s (docs/protocol.md): an integer holds it. */
    volumeMl: integer('volume_ml').notNull(),
    flowS: integer('flow_s').notNull(),
    temperatureC: real('temperature_c'),
    humidityPct: real('humidity_pct'),
    placedLive: boolean('placed_live'),
  },
  // Partitioned by range of measured_at, a week a partition (migration 0027, telemetry/reading-partitions.repo.ts):
  // the key must hold the partition key.
  (t) => [
    primaryKey({ name: 'telemetry_readings_pk', columns: [t.flowboxNum, t.seq, t.measuredAt] }),
    index('telemetry_readings_zone_idx').on(t.zoneId, t.measuredAt),
  ],
);

/**
 * Hourly rollup per zone and flowbox (UTC hours), maintained by upsert as readings are stored. A
 * zone's figures are the sum of its flowboxes' rows; graphs never read raw readings. Climate keeps
 * min/max and sum/count (the average is sum/count, and sums add up across late readings).
 */
export const consumptionHourly = pgTable(
  'consumption_hourly',
  {
    zoneId: uuid('zone_id')
      .notNull()
      .references(() => zones.id, { onDelete: 'cascade' }),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    flowboxId: uuid('flowbox_id').notNull(),
    volumeMl: bigint('volume_ml', { mode: 'number' }).notNull(),
    flowS: integer('flow_s').notNull(),
    readings: integer('readings').notNull(),
    temperatureMin: doublePrecision('temperature_min'),
    temperatureMax: doublePrecision('temperature_max'),
    temperatureSum: doublePrecision('temperature_sum').notNull().default(0),
    temperatureCount: integer('temperature_count').notNull().default(0),
    humidityMin: doublePrecision('humidity_min'),
    humidityMax: doublePrecision('humidity_max'),
    humiditySum: doublePrecision('humidity_sum').notNull().default(0),
    humidityCount: integer('humidity_count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.zoneId, t.hour, t.flowboxId] })],
);

/**
 * Daily rollup per zone and flowbox: `day` is the local date in the building's time zone when the
 * reading was stored, so week, month and year graphs follow local days (also in time zones with a
 * half-hour offset, which UTC hours cannot give).
 */
export const consumptionDaily = pgTable(
  'consumption_daily',
  {
    zoneId: uuid('zone_id')
      .notNull()
      .references(() => zones.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    flowboxId: uuid('flowbox_id').notNull(),
    volumeMl: bigint('volume_ml', { mode: 'number' }).notNull(),
    flowS: integer('flow_s').notNull(),
    readings: integer('readings').notNull(),
  },
  (t) => [primaryKey({ columns: [t.zoneId, t.day, t.flowboxId] })],
);

/**
 * A building's water balance (docs/automation.md "Building water balance"): the zone whose
 * flowboxes measure its main supply, the manager's alert thresholds for the unaccounted water of a
 * night, and when the next night is due to be judged (`judgeAt`, by the water-balance job).
 */
export const buildingWaterBalance = pgTable(
  'building_water_balance',
  {
    buildingId: uuid('building_id')
      .primaryKey()
      .references(() => buildings.id, { onDelete: 'cascade' }),
    mainSupplyZoneId: uuid('main_supply_zone_id')
      .unique()
      .references(() => zones.id, { onDelete: 'set null' }),
    alertLitersPerNight: integer('alert_liters_per_night'),
    alertSharePct: integer('alert_share_pct'),
    judgeAt: timestamp('judge_at', { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('building_water_balance_due_idx')
      .on(t.judgeAt)
      .where(sql`${t.mainSupplyZoneId} IS NOT NULL`),
  ],
);

/**
 * Scheduled closings of a zone (spec §3 Schedule, docs/schedules.md): dates and times in the
 * building's local time; the occurrences are computed from them with rrule, never stored ahead.
 */
export const schedules = pgTable(
  'schedules',
  {
    id: id(),
    zoneId: uuid('zone_id')
      .notNull()
      .references(() => zones.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    dateStart: date('date_start').notNull(),
    dateEnd: date('date_end').notNull(),
    closingTime: text('closing_time').notNull(),
    openingTime: text('opening_time').notNull(),
    recurring: boolean('recurring').notNull(),
    frequency: text('frequency').$type<ScheduleFrequency>(),
    interval: integer('interval').notNull().default(1),
    weekdays: jsonb('weekdays').$type<Weekday[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('schedules_zone_idx').on(t.zoneId)],
);

/**
 * One row per closing window that has run (DESIGN.md §2 jobs): inserted with ON CONFLICT DO
 * NOTHING when the valve is closed, so each window closes once across instances and restarts;
 * `opened_at` is set, under FOR UPDATE SKIP LOCKED, when it opens. The row outlives its schedule
 * (schedule_id set null) so that a window already started still opens at its end.
 */
export const scheduleRuns = pgTable(
  'schedule_runs',
  {
    id: id(),
    scheduleId: uuid('schedule_id').references(() => schedules.id, { onDelete: 'set null' }),
    zoneId: uuid('zone_id')
      .notNull()
      .references(() => zones.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    occurrenceStart: timestamp('occurrence_start', { withTimezone: true }).notNull(),
    occurrenceEnd: timestamp('occurrence_end', { withTimezone: true }).notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }).notNull(),
    /** Close commands queued (0: no paired flowbox then). */
    closeCommands: integer('close_commands').notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }),
    /** opened, or why not: locked (automatic closing), overlapped (another window runs). */
    openOutcome: text('open_outcome').$type<'opened' | 'locked' | 'overlapped'>(),
  },
  (t) => [
    uniqueIndex('schedule_runs_occurrence_unique').on(t.scheduleId, t.occurrenceStart),
    index('schedule_runs_open_due_idx')
      .on(t.occurrenceEnd)
      .where(sql`${t.openedAt} IS NULL`),
    index('schedule_runs_zone_idx').on(t.zoneId, t.occurrenceEnd),
  ],
);

/**
 * Automatic closing of a zone (spec §3, §4, §9; docs/automation.md): its settings, the detection
 * state updated in the ingest transaction (so any instance continues another's work), the lock and
 * the durable one-hour block after exit. One row per zone, created on first use.
 */
export const zoneAutomation = pgTable(
  'zone_automation',
  {
    zoneId: uuid('zone_id')
      .primaryKey()
      .references(() => zones.id, { onDelete: 'cascade' }),
    automaticClosingEnabled: boolean('automatic_closing_enabled').notNull().default(false),
    volumeMarginEnabled: boolean('volume_margin_enabled').notNull().default(false),
    /** As entered, in `volume_margin_unit` (the building's unit then). */
    volumeMargin: numeric('volume_margin', { precision: 14, scale: 4 }),
    volumeMarginUnit: text('volume_margin_unit').$type<VolumeUnit>(),
    durationMarginEnabled: boolean('duration_margin_enabled').notNull().default(false),
    durationMarginMinutes: integer('duration_margin_minutes'),
    eventStartedAt: timestamp('event_started_at', { withTimezone: true }),
    lastFlowAt: timestamp('last_flow_at', { withTimezone: true }),
    /** The flowbox of the event's latest flowing reading, its seq and its end by its clock (issue #29). */
    lastFlowFlowboxId: uuid('last_flow_flowbox_id'),
    lastFlowSeq: bigint('last_flow_seq', { mode: 'number' }),
    lastFlowDeviceAt: timestamp('last_flow_device_at', { withTimezone: true }),
    lastFlowLive: boolean('last_flow_live').notNull().default(true),
    eventVolumeMl: bigint('event_volume_ml', { mode: 'number' }).notNull().default(0),
    eventFlowS: integer('event_flow_s').notNull().default(0),
    /** The event went past a margin: how, as stored by `crossingToJson` (acted on or not yet). */
    eventCrossing: jsonb('event_crossing').$type<StoredCrossing>(),
    eventTriggered: boolean('event_triggered').notNull().default(false),
    eventLeakRaised: boolean('event_leak_raised').notNull().default(false),
    lastMeasuredAt: timestamp('last_measured_at', { withTimezone: true }),
    /** spec §9: no abnormal-volume trigger before this time (server clock), survives restarts. */
    detectionBlockedUntil: timestamp('detection_blocked_until', { withTimezone: true }),
    /** Each flowbox's last seq fed to detection without a hole; readings past a hole, held (issue #29). */
    seqs: jsonb('seqs').$type<Record<string, number>>().notNull().default({}),
    held: jsonb('held').$type<readonly HeldReading[]>().notNull().default([]),
    /** When the oldest held reading stops waiting: the `held_readings` sweep judges the zone then. */
    heldUntil: timestamp('held_until', { withTimezone: true }),
    /** spec §4 "triggered": set while the zone is locked. */
    lockedAt: timestamp('locked_at', { withTimezone: true }),
    lockedBy: text('locked_by').$type<'volume' | 'duration'>(),
    closeConfirmedAt: timestamp('close_confirmed_at', { withTimezone: true }),
    /** The flowbox_dysfunction alert for an unconfirmed safety close was raised. */
    closeDysfunctionRaised: boolean('close_dysfunction_raised').notNull().default(false),
    /**
     * Away mode (issue 33, docs/automation.md "Away mode"): the period, whether the water closes at
     * the first flow, who set it, and when it closed the water in this period (once a period).
     */
    awayFrom: timestamp('away_from', { withTimezone: true }),
    awayUntil: timestamp('away_until', { withTimezone: true }),
    awayCloseOnFlow: boolean('away_close_on_flow').notNull().default(false),
    awaySetByName: text('away_set_by_name'),
    awaySetAt: timestamp('away_set_at', { withTimezone: true }),
    awayClosedAt: timestamp('away_closed_at', { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  // The fleet list's "locked" filter: the few locked zones, without reading every zone's row.
  (t) => [
    index('zone_automation_locked_idx')
      .on(t.zoneId)
      .where(sql`${t.lockedAt} IS NOT NULL`),
    // The sweep of held readings: the few zones waiting for a hole.
    index('zone_automation_held_idx')
      .on(t.heldUntil)
      .where(sql`${t.heldUntil} IS NOT NULL`),
  ],
);

/**
 * Alerts (spec §4, docs/alerts.md). One not-resolved alert per (zone, cause): the partial unique
 * index is what makes a repeat count on the existing alert instead of opening a second one, even
 * when two instances raise at once. `notify_due_at` is the durable email job: the notifier claims
 * due rows with SKIP LOCKED, emails them, and sets the next escalation time (critical) or null.
 */
export const alerts = pgTable(
  'alerts',
  {
    id: id(),
    category: text('category').notNull().$type<AlertCategory>(),
    cause: text('cause').notNull(),
    state: text('state').notNull().$type<AlertState>(),
    details: jsonb('details').$type<AlertDetails>().notNull().default({}),
    count: integer('count').notNull().default(1),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    siteId: uuid('site_id').notNull(),
    buildingId: uuid('building_id').notNull(),
    zoneId: uuid('zone_id')
      .notNull()
      .references(() => zones.id, { onDelete: 'cascade' }),
    flowboxId: uuid('flowbox_id').references(() => flowboxes.id, { onDelete: 'set null' }),
    flowboxSerial: text('flowbox_serial'),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    silencedAt: timestamp('silenced_at', { withTimezone: true }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: uuid('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    resolvedByName: text('resolved_by_name'),
    resolvedAutomatically: boolean('resolved_automatically').notNull().default(false),
    emailedAt: timestamp('emailed_at', { withTimezone: true }),
    emailRounds: integer('email_rounds').notNull().default(0),
    notifyDueAt: timestamp('notify_due_at', { withTimezone: true }),
    /**
     * A critical alert's next escalation (docs/alerts.md "Escalation"): at 1, the channels people
     * keep for an alert they have not opened; at 2, the zone's managers when nobody has opened it.
     */
    escalateAt: timestamp('escalate_at', { withTimezone: true }),
    escalationStage: smallint('escalation_stage').notNull().default(0),
  },
  (t) => [
    uniqueIndex('alerts_one_per_cause')
      .on(t.zoneId, t.cause)
      .where(sql`${t.state} <> 'resolved'`),
    index('alerts_customer_idx').on(t.customerId, t.lastSeenAt),
    index('alerts_site_idx').on(t.siteId, t.state),
    index('alerts_notify_due_idx').on(t.notifyDueAt),
    index('alerts_escalate_idx')
      .on(t.escalateAt)
      .where(sql`${t.escalateAt} is not null`),
    // The fleet list's open alerts of a flowbox (docs/fleet.md "Speed"): the few not resolved, by flowbox.
    index('alerts_open_flowbox_idx')
      .on(t.flowboxId)
      .where(sql`${t.state} <> 'resolved'`),
    // The same, of one customer or some of its sites: the fleet list counts the caller's own only.
    index('alerts_open_customer_idx')
      .on(t.customerId, t.siteId)
      .where(sql`${t.state} <> 'resolved'`),
  ],
);

/**
 * "Was this you?" (issue 33, docs/alerts.md): each person's answer to a leak or abnormal-use alert,
 * one per person and alert (a new answer replaces theirs). The zone and time serve the zone's sums
 * over the last 90 days (the backtest's evidence).
 */
export const alertAnswers = pgTable(
  'alert_answers',
  {
    alertId: uuid('alert_id')
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    userName: text('user_name').notNull(),
    zoneId: uuid('zone_id')
      .notNull()
      .references(() => zones.id, { onDelete: 'cascade' }),
    answer: text('answer').notNull().$type<AlertAnswerValue>(),
    answeredAt: timestamp('answered_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.alertId, t.userId] }),
    index('alert_answers_zone_idx').on(t.zoneId, t.answeredAt),
  ],
);

/**
 * Alerts opened in a pushed category whose Web Push messages are not queued yet (alerts/notifier.ts,
 * docs/push.md "Delivery"): the notifier takes them with SKIP LOCKED, deleting the row as it queues.
 */
export const alertPushes = pgTable(
  'alert_pushes',
  {
    alertId: uuid('alert_id')
      .primaryKey()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('alert_pushes_opened_idx').on(t.openedAt)],
);

/**
 * Web Push (docs/push.md): each browser a user allowed notifications in. The endpoint is the push
 * service's address for that browser, unique; p256dh and auth are the browser's keys the payload is
 * encrypted for (RFC 8291). Deleted when the push service answers 404 or 410.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    /** Which browser, as the user would say it (from its User-Agent unless the web app names it). */
    label: text('label').notNull().default(''),
    createdAt: createdAt(),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
    /** Tries refused or failed since the last success. */
    failureCount: integer('failure_count').notNull().default(0),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_idx').on(t.endpoint),
    index('push_subscriptions_user_idx').on(t.userId),
  ],
);

/**
 * The Web Push delivery queue (push/push-delivery.service.ts), one row a message to one browser:
 * queued → sending (a lease) → sent, or failed after its last try. `reading_at` (the alert's opened
 * time) and `sent_at` (the push service accepted it) give "reading → notification sent".
 */
export const pushMessages = pgTable(
  'push_messages',
  {
    id: id(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => pushSubscriptions.id, { onDelete: 'cascade' }),
    alertId: uuid('alert_id').references(() => alerts.id, { onDelete: 'cascade' }),
    /** The JSON the browser decrypts (PushPayload), encrypted only when sent. */
    payload: text('payload').notNull(),
    urgency: text('urgency').notNull().$type<PushUrgency>(),
    ttlS: integer('ttl_s').notNull(),
    status: text('status').notNull().$type<PushMessageStatus>(),
    attempts: integer('attempts').notNull().default(0),
    /** When the next try may start (queued), or when a try's lease ends (sending). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    error: text('error'),
    readingAt: timestamp('reading_at', { withTimezone: true }),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('push_messages_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} in ('queued', 'sending')`),
    index('push_messages_alert_idx').on(t.alertId),
    index('push_messages_subscription_idx').on(t.subscriptionId),
  ],
);

/**
 * "Snooze 1 h" from a notification (docs/push.md "Snooze"): the user is pushed no alert of this
 * category in this zone until `until`; other categories, and emails, still reach them. One row per
 * user, zone and category; a later snooze moves its end.
 */
/**
 * Who opened which alert (docs/alerts.md "Escalation"): the notification clicked, the alert shown
 * in the app, or an action taken on it. An alert's channels kept "if not opened" go only to the
 * people without a row here, and its managers are told when it has none.
 */
export const alertOpens = pgTable(
  'alert_opens',
  {
    alertId: uuid('alert_id')
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.alertId, t.userId] }), index('alert_opens_user_idx').on(t.userId)],
);

export const pushSnoozes = pgTable(
  'push_snoozes',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    zoneId: uuid('zone_id')
      .notNull()
      .references(() => zones.id, { onDelete: 'cascade' }),
    category: text('category').notNull().$type<AlertCategory>(),
    until: timestamp('until', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.zoneId, t.category] }),
    index('push_snoozes_zone_idx').on(t.zoneId),
  ],
);

/**
 * Each flowbox's count of alerts not resolved (its own, and its zone's naming no flowbox), kept
 * from the changes the triggers on alerts and flowboxes append (migration 0020): the provider's
 * fleet list sorted by open alerts reads it in index order instead of counting every open alert
 * (docs/fleet.md "Speed").
 */
export const fleetOpenAlerts = pgTable(
  'fleet_open_alerts',
  {
    flowboxId: uuid('flowbox_id')
      .primaryKey()
      .references(() => flowboxes.id, { onDelete: 'cascade' }),
    serial: text('serial').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [index('fleet_open_alerts_order_idx').on(t.n, t.serial)],
);

/** Changes to those counts appended by the triggers, added to them by `fleet_open_alerts_fold`. */
export const fleetOpenAlertChanges = pgTable(
  'fleet_open_alert_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    flowboxId: uuid('flowbox_id').notNull(),
    d: integer('d').notNull(),
  },
  (t) => [index('fleet_open_alert_changes_flowbox_idx').on(t.flowboxId)],
);

/** spec §3 alert settings, one row per category once a provider manager changes it (defaults in code). */
export const alertCategorySettings = pgTable('alert_category_settings', {
  category: text('category').primaryKey().$type<AlertCategory>(),
  subjectEn: text('subject_en').notNull(),
  subjectFr: text('subject_fr').notNull(),
  enabled: boolean('enabled').notNull(),
  premiumOnly: boolean('premium_only').notNull(),
  email: boolean('email').notNull(),
  updatedAt: updatedAt(),
});

/**
 * spec §4 monitoring: the last status of a flowbox's temperature and humidity, so a status change
 * (with hysteresis) is written once, whichever instance ingests the next reading.
 */
export const flowboxMonitoring = pgTable(
  'flowbox_monitoring',
  {
    flowboxId: uuid('flowbox_id')
      .notNull()
      .references(() => flowboxes.id, { onDelete: 'cascade' }),
    metric: text('metric').notNull().$type<MonitoringMetric>(),
    status: text('status').notNull().$type<MonitoringStatus>(),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.flowboxId, t.metric] })],
);

/**
 * Firmware catalogue (docs/firmware.md): an image's bytes live in the shared file store (`file_id`);
 * this row says what it is, what it fits and who may use it.
 */
export const firmwareImages = pgTable(
  'firmware_images',
  {
    id: id(),
    fileId: uuid('file_id')
      .notNull()
      .references(() => files.id),
    version: text('version').notNull(),
    models: jsonb('models').$type<FlowboxModel[]>().notNull(),
    fileName: text('file_name').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    notesEn: text('notes_en'),
    notesFr: text('notes_fr'),
    status: text('status').notNull().$type<FirmwareImageStatus>(),
    /** Released to every customer; otherwise only to those of `firmware_image_customers`. */
    releasedToAll: boolean('released_to_all').notNull(),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    uploadedByName: text('uploaded_by_name'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('firmware_images_sha256_idx').on(t.sha256),
    index('firmware_images_version_idx').on(t.version),
  ],
);

export const firmwareImageCustomers = pgTable(
  'firmware_image_customers',
  {
    imageId: uuid('image_id')
      .notNull()
      .references(() => firmwareImages.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.imageId, t.customerId] }),
    index('firmware_image_customers_customer_idx').on(t.customerId),
  ],
);

/** A staged rollout of one image over a place of the hierarchy (docs/firmware.md "Rollouts"). */
export const firmwareRollouts = pgTable(
  'firmware_rollouts',
  {
    id: id(),
    imageId: uuid('image_id')
      .notNull()
      .references(() => firmwareImages.id),
    /** The place it runs over; all null: the whole fleet (provider). */
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'cascade' }),
    siteId: uuid('site_id'),
    buildingId: uuid('building_id'),
    zoneId: uuid('zone_id'),
    label: text('label').notNull(),
    fromVersions: jsonb('from_versions').$type<string[]>(),
    models: jsonb('models').$type<FlowboxModel[]>().notNull(),
    wavesPct: jsonb('waves_pct').$type<number[]>().notNull(),
    startJitterS: integer('start_jitter_s').notNull(),
    maxConcurrent: integer('max_concurrent').notNull(),
    failureThresholdPct: doublePrecision('failure_threshold_pct').notNull(),
    duringOpeningHours: boolean('during_opening_hours').notNull(),
    state: text('state').notNull().$type<RolloutState>(),
    haltReason: text('halt_reason').$type<RolloutHaltReason>(),
    /** The wave now running, 1-based. */
    currentWave: integer('current_wave').notNull().default(1),
    total: integer('total').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdByName: text('created_by_name'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('firmware_rollouts_customer_idx').on(t.customerId, t.createdAt),
    index('firmware_rollouts_running_idx')
      .on(t.id)
      .where(sql`${t.state} = 'running'`),
  ],
);

/** One flowbox's update: by itself (from its page) or as a device of a rollout. */
export const firmwareUpdates = pgTable(
  'firmware_updates',
  {
    id: id(),
    flowboxId: uuid('flowbox_id')
      .notNull()
      .references(() => flowboxes.id, { onDelete: 'cascade' }),
    imageId: uuid('image_id')
      .notNull()
      .references(() => firmwareImages.id),
    rolloutId: uuid('rollout_id').references(() => firmwareRollouts.id, { onDelete: 'cascade' }),
    wave: smallint('wave'),
    fromVersion: text('from_version'),
    targetVersion: text('target_version').notNull(),
    state: text('state').notNull().$type<FirmwareUpdateState>(),
    reason: text('reason').$type<FirmwareFailureReason | FirmwareSkipReason>(),
    progressPct: doublePrecision('progress_pct'),
    bytes: integer('bytes'),
    /** The `update_firmware` command carrying it (device_commands.id). */
    commandId: uuid('command_id'),
    /** Downloads started (first one and resumes): more than FIRMWARE_DOWNLOAD_ATTEMPTS blocks it. */
    downloadAttempts: integer('download_attempts').notNull().default(0),
    /** A scheduled device of a rollout starts at or after this time (its random start delay). */
    startAfter: timestamp('start_after', { withTimezone: true }),
    origin: text('origin').notNull().$type<EventOrigin>(),
    requestedBy: uuid('requested_by').references(() => users.id, { onDelete: 'set null' }),
    requestedByName: text('requested_by_name'),
    createdAt: createdAt(),
    stateChangedAt: timestamp('state_changed_at', { withTimezone: true }).notNull(),
    /** The device's last firmware message about it. */
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('firmware_updates_flowbox_idx').on(t.flowboxId, t.createdAt),
    index('firmware_updates_rollout_idx').on(t.rolloutId, t.wave, t.state),
    /** One unfinished update a flowbox, whatever asked for it. */
    uniqueIndex('firmware_updates_one_running')
      .on(t.flowboxId)
      .where(sql`${t.state} IN ('requested', 'requesting', 'started', 'downloaded')`),
    index('firmware_updates_active_idx')
      .on(t.stateChangedAt)
      .where(sql`${t.state} IN ('requested', 'requesting', 'started', 'downloaded')`),
    index('firmware_updates_scheduled_idx')
      .on(t.rolloutId, t.startAfter)
      .where(sql`${t.state} = 'scheduled'`),
  ],
);

/** An update's history: every state it went through, with time, progress and reason. */
export const firmwareUpdateSteps = pgTable(
  'firmware_update_steps',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    updateId: uuid('update_id')
      .notNull()
      .references(() => firmwareUpdates.id, { onDelete: 'cascade' }),
    state: text('state').notNull().$type<FirmwareUpdateState>(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    progressPct: doublePrecision('progress_pct'),
    reason: text('reason').$type<FirmwareFailureReason | FirmwareSkipReason>(),
  },
  (t) => [index('firmware_update_steps_update_idx').on(t.updateId, t.at)],
);

/**
 * The plumber directory (docs/maps.md): a customer's own entries, or (no customer) the provider's,
 * shared with every customer.
 */
export const plumbers = pgTable(
  'plumbers',
  {
    id: id(),
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'cascade' }),
    company: text('company').notNull(),
    contactName: text('contact_name').notNull().default(''),
    phone: text('phone').notNull().default(''),
    email: text('email').notNull().default(''),
    address: text('address').notNull().default(''),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    /** How far from its address the plumber comes, in km; null: not said. */
    serviceRadiusKm: integer('service_radius_km'),
    specialities: jsonb('specialities').$type<PlumberSpeciality[]>().notNull().default([]),
    availability: text('availability').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('plumbers_customer_idx').on(t.customerId, t.company)],
);

/**
 * Leak analytics of a zone or a building (issue 29, docs/automation.md "Leak analytics"): the state
 * `analyseLeaks` (packages/shared/src/automation/leaks.ts) computed from the hourly figures after the
 * last ingest batch that touched them, `asOf` that moment. Read by the leaks endpoints, the fleet
 * filters and the dashboards; the zone's row also tells the leak alert's episode (`continuousSince`).
 */
const leakColumns = () => ({
  asOf: timestamp('as_of', { withTimezone: true }).notNull(),
  continuousHours: integer('continuous_hours').notNull(),
  continuousSince: timestamp('continuous_since', { withTimezone: true }),
  continuousAtLeast: boolean('continuous_at_least').notNull(),
  continuousFloorLph: doublePrecision('continuous_floor_lph'),
  nightFlowLph: doublePrecision('night_flow_lph'),
  allowanceLph: doublePrecision('allowance_lph').notNull(),
  aboveAllowance: boolean('above_allowance').notNull(),
  lossLph: doublePrecision('loss_lph').notNull(),
  lossLitresDay: doublePrecision('loss_litres_day').notNull(),
  continuousFlowDays: integer('continuous_flow_days').notNull(),
  nights: jsonb('nights').$type<{ night: string; minLph: number; hour: string }[]>().notNull(),
});

export const zoneLeaks = pgTable('zone_leaks', {
  zoneId: uuid('zone_id')
    .primaryKey()
    .references(() => zones.id, { onDelete: 'cascade' }),
  ...leakColumns(),
});

export const buildingLeaks = pgTable('building_leaks', {
  buildingId: uuid('building_id')
    .primaryKey()
    .references(() => buildings.id, { onDelete: 'cascade' }),
  ...leakColumns(),
});

/**
 * Scheduled reports (issue 33, docs/reports.md, migration 0030): a customer's (no site) or a site's
 * schedule, claimed by the `scheduled_reports` job when `next_due_at` has come (`lease_until` holds
 * it while one instance generates its report).
 */
export const reportSchedules = pgTable(
  'report_schedules',
  {
    id: id(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    siteId: uuid('site_id').references(() => sites.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    frequency: text('frequency').notNull().$type<'weekly' | 'monthly'>(),
    formats: jsonb('formats').notNull().$type<('csv' | 'pdf')[]>(),
    language: text('language').notNull().$type<'en' | 'fr'>(),
    recipientIds: jsonb('recipient_ids').notNull().$type<string[]>(),
    enabled: boolean('enabled').notNull().default(true),
    nextDueAt: timestamp('next_due_at', { withTimezone: true }).notNull(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('report_schedules_scope_idx').on(t.customerId, t.siteId),
    index('report_schedules_due_idx')
      .on(t.nextDueAt)
      .where(sql`${t.enabled}`),
  ],
);

/** A report made by a schedule or on demand, its files in the row (the last REPORTS_KEPT kept). */
export const reports = pgTable(
  'reports',
  {
    id: id(),
    scheduleId: uuid('schedule_id').references(() => reportSchedules.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    siteId: uuid('site_id').references(() => sites.id, { onDelete: 'cascade' }),
    periodFrom: date('period_from', { mode: 'string' }).notNull(),
    periodTo: date('period_to', { mode: 'string' }).notNull(),
    language: text('language').notNull().$type<'en' | 'fr'>(),
    csv: bytea('csv'),
    pdf: bytea('pdf'),
    createdAt: createdAt(),
    /** The name of the user who asked for it; null for the job. */
    createdBy: text('created_by'),
  },
  (t) => [
    uniqueIndex('reports_schedule_period_idx')
      .on(t.scheduleId, t.periodFrom)
      .where(sql`${t.scheduleId} IS NOT NULL`),
    index('reports_scope_idx').on(t.customerId, t.siteId, t.createdAt),
  ],
);
