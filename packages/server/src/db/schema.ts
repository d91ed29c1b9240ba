import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type {
  AlertsSettings,
  BuildingType,
  Contact,
  Currency,
  FlowboxModel,
  OpeningHours,
  PermissionSet,
  ServiceLevel,
  ValveState,
  VolumeUnit,
  WaterPointType,
  WaterTemperature,
  Weekday,
  ZoneProfile,
} from '@flowbox/shared';

const id = () =>
  uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`);
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const customers = pgTable('customers', {
  id: id(),
  name: text('name').notNull(),
  logo: text('logo'),
  operationsContact: jsonb('operations_contact').$type<Contact>(),
  technicalContact: jsonb('technical_contact').$type<Contact>(),
  administrativeContact: jsonb('administrative_contact').$type<Contact>(),
  subscriptionDate: date('subscription_date', { mode: 'string' }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

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
    role: smallint('role').notNull().$type<1 | 2 | 3>(),
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

/** Single-use links sent by email (password reset, invitation); only a hash is kept. */
export const userTokens = pgTable(
  'user_tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull().$type<'reset' | 'invite'>(),
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
    status: text('status').notNull().$type<'stored' | 'sent' | 'failed'>(),
    error: text('error'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('emails_created_idx').on(t.createdAt)],
);

/** End-user registrations (spec §1), reviewed by a provider manager before any account exists. */
export const registrations = pgTable('registrations', {
  id: id(),
  firstname: text('firstname').notNull(),
  lastname: text('lastname').notNull(),
  email: text('email').notNull(),
  passwordHash: text('password_hash').notNull(),
  language: text('language').notNull().$type<'en' | 'fr'>(),
  flowboxSerial: text('flowbox_serial').notNull(),
  status: text('status').notNull().default('pending').$type<'pending' | 'approved' | 'rejected'>(),
  createdAt: createdAt(),
});

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
    pricePerUnit: numeric('price_per_unit', { precision: 12, scale: 4 }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('buildings_site_idx').on(t.siteId)],
);

/** spec §3 floor. The paired flowbox arrives with the devices issue. */
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
 * Uploaded images (customer and site logos, site and building plans, building pictures). The file
 * is DATA_DIR/uploads/<id>.<ext>; the row says whose it is, which decides who may read it.
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
    fileName: text('file_name').notNull(),
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
