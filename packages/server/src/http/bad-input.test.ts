import { count } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { LightMyRequestResponse } from 'fastify';
import { ROLES, isMessageKey, MESSAGES, translate, type Language, type MessageKey } from '@flowbox/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alertCategorySettings,
  alerts,
  buildings,
  customers,
  deviceCommands,
  flowboxCredentials,
  files,
  firmwareImages,
  flowboxes,
  reports,
  reportSchedules,
  emails,
  events,
  floors,
  images,
  plumbers,
  pricingPlanRanges,
  pricingPlans,
  pricingPlanVersions,
  pushSnoozes,
  pushSubscriptions,
  registrations,
  scheduleRuns,
  schedules,
  sites,
  users,
  userSites,
  waterPoints,
  webhookDeliveries,
  webhookEvents,
  webhooks,
  zones,
  zoneSubscriptions,
} from '../db/schema.ts';
import {
  ApiClient,
  buildingBody,
  createTestApp,
  createUser,
  createWorld,
  loginAs,
  zoneBody,
  type TestApp,
  type World,
} from '../test/harness.ts';
import { firmwareForm } from '../firmware/catalogue.testing.ts';
import { testBrowser } from '../push/push.testing.ts';

/*
 * Whatever a client sends, the answer is the one error shape `{ code, message, details? }` from the
 * message catalogue, in the caller's language, never a 500, and nothing is written.
 */

let t: TestApp;
let w: World;
const providers = {} as Record<Language, ApiClient>;
let cmA: ApiClient;

beforeAll(async () => {
  // Thousands of calls from one address within a minute: the per-address limit is not under test here.
  // The file signs in once and runs for more than the 15-minute token life on a loaded machine.
  t = await createTestApp({ rateLimitPerMinute: 100_000, accessTokenTtl: 86_400 });
  w = await createWorld(t.db);
  providers.en = await loginAs(t.app, 'provider@test.io', 'en');
  providers.fr = await loginAs(t.app, 'provider@test.io', 'fr');
  cmA = await loginAs(t.app, 'cm.a@test.io');
  const building = await providers.en.post(`${A()}/sites/${w.sites.a1.id}/buildings/create`, buildingBody());
  ids.building = building.json().id;
  ids.floor = (await providers.en.post(`${B()}/floors/create`, { label: 'Ground' })).json().id;
  ids.zone = (await providers.en.post(`${B()}/zones/create`, zoneBody())).json().id;
  ids.waterPoint = (
    await providers.en.post(`${Z()}/water_points/create`, { label: 'Tap', type: 'sink' })
  ).json().id;
  ids.plan = (await providers.en.post('/v1/pricing_plans/create', planBody())).json().id;
  const [flowbox] = await t.db
    .insert(flowboxes)
    .values({ serial: 'BAD-INPUT-1', zoneId: ids.zone, pairingState: 'ready' })
    .returning();
  ids.flowbox = flowbox!.id;
  const [command] = await t.db
    .insert(deviceCommands)
    .values({
      flowboxId: flowbox!.id,
      name: 'autotest',
      origin: 'web',
      issuedAt: new Date(),
      expiresAt: new Date(Date.now() + 120_000),
      nextAttemptAt: new Date(),
      status: 'pending',
    })
    .returning();
  ids.command = command!.id;
  await providers.en.put(`${Z()}/update`, { scheduled_closing_authorised: true });
  ids.schedule = (await providers.en.post(`${Z()}/schedules/create`, scheduleBody())).json().id;
  const raised = await t.db.transaction((tx) =>
    t.services.alerts.raise(tx, {
      category: 'flowbox_dysfunction',
      zoneId: ids.zone,
      cause: 'bad-input',
      details: {},
    }),
  );
  if (!raised.raised) throw new Error('no alert raised');
  ids.alert = raised.alert.id;
  ids.plumber = (await providers.en.post('/v1/plumbers/create', { company: 'Bad Input Plumbing' })).json().id;
  ids.webhook = (
    await providers.en.post(`${A()}/webhooks/create`, {
      url: 'https://hooks.example/bad-input',
      events: ['alert.opened'],
      enabled: false,
    })
  ).json().id;
  // docs/permissions.md "End users and plumbers": one of each in customer A, for their families' calls.
  const [endUser, plumberUser] = await Promise.all([
    createUser(t.db, {
      email: 'eu.bad@test.io',
      role: ROLES.end_user,
      customerId: w.customers.a.id,
      zoneIds: [ids.zone],
    }),
    createUser(t.db, {
      email: 'pl.bad@test.io',
      role: ROLES.plumber,
      customerId: w.customers.a.id,
      siteIds: [w.sites.a1.id],
    }),
  ]);
  ids.endUser = endUser.id;
  ids.plumberUser = plumberUser.id;
});

/** A building of site a1 with a floor, a zone and a water point, made through the API. */
const ids = {
  building: '',
  floor: '',
  zone: '',
  waterPoint: '',
  plan: '',
  flowbox: '',
  command: '',
  schedule: '',
  alert: '',
  plumber: '',
  webhook: '',
  endUser: '',
  plumberUser: '',
};
const B = () => `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}/buildings/${ids.building}`;
const Z = () => `${B()}/zones/${ids.zone}`;
afterAll(() => t.close());

const GHOST = '00000000-0000-4000-8000-000000000000';
const LANGUAGES: Language[] = ['en', 'fr'];

async function rowCounts() {
  const rows = async (table: PgTable) => (await t.db.select({ n: count() }).from(table))[0]!.n;
  const tables = {
    webhooks,
    webhookEvents,
    webhookDeliveries,
    users,
    customers,
    sites,
    emails,
    userSites,
    registrations,
    buildings,
    floors,
    zones,
    waterPoints,
    images,
    events,
    reportSchedules,
    reports,
    pricingPlans,
    pricingPlanVersions,
    pricingPlanRanges,
    zoneSubscriptions,
    flowboxes,
    flowboxCredentials,
    deviceCommands,
    schedules,
    scheduleRuns,
    alerts,
    alertCategorySettings,
    firmwareImages,
    files,
    plumbers,
    pushSubscriptions,
    pushSnoozes,
  };
  const counts: Record<string, number> = {};
  for (const [name, table] of Object.entries(tables)) counts[name] = await rows(table);
  return counts;
}

const asPattern = (template: string) =>
  new RegExp(`^${template.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{\\\{\w+\\\}\\\}/g, '.+')}$`);

/** Asserts the one error shape, with messages from the catalogue in that language; never a 500. */
function expectCatalogueError(res: LightMyRequestResponse, language: Language, status: number) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json();
  expect(Object.keys(body).filter((k) => !['code', 'message', 'details'].includes(k))).toEqual([]);
  expect(body.code).toMatch(/^errors\./);
  expect(isMessageKey(body.code)).toBe(true);
  expect(body.message).toBe(translate(body.code as MessageKey, language));
  const templates = Object.values(MESSAGES[language]).map(asPattern);
  for (const detail of body.details ?? []) {
    expect(Object.keys(detail).sort()).toEqual(['message', 'path']);
    expect(typeof detail.path).toBe('string');
    expect(
      templates.some((p) => p.test(detail.message)),
      detail.message,
    ).toBe(true);
  }
  return body as { code: string; message: string; details?: { path: string; message: string }[] };
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type BodyEndpoint = {
  name: string;
  method: Method;
  path: () => string;
  /** Public calls are tried without a token; the others as a provider manager, who may do everything. */
  anonymous?: boolean;
  /** A body the call would accept: every test below breaks it. */
  valid: () => Record<string, unknown>;
  /** The fields that must be present, with the message a missing one gets. */
  required: Record<string, MessageKey>;
  /** Messages other than "This value is not valid" for a value of the wrong type. */
  wrongTypeMessages?: Record<string, MessageKey>;
  /** Text fields limited to 120 characters. */
  names?: string[];
};

const A = () => `/v1/customers/${w.customers.a.id}`;
const person = { firstname: 'Nora', lastname: 'Valid', email: 'nora.valid@test.io' };
const nameRequired = { firstname: 'validation.required', lastname: 'validation.required' } as const;
const confirm: Pick<BodyEndpoint, 'valid' | 'required'> = {
  valid: () => ({ confirm_name: 'Some Name' }),
  required: { confirm_name: 'validation.required' },
};
/** A pricing plan offered where the test building is (FR, EUR). */
const planBody = () => ({
  name: 'Plan',
  regions: ['FR'],
  billing_type: 'monthly',
  acquisition_type: 'lifetime_fee',
  currency: 'EUR',
  volume_unit: 'm3',
  from_date: '2025-01-01',
  ranges: [{ volume_start: '0', volume_end: null, price_per_unit: '2.5' }],
});
const managerUpdate = () => ({
  firstname: 'Nora',
  alert_notification_enabled: true,
  alerts_settings: { maintenance: { email: false } },
  permissions: { 'sites.manage': 'denied' },
});

/** A weekly scheduled closing the API accepts. */
const scheduleBody = () => ({
  label: 'Weekend',
  date_start: '2026-01-01',
  date_end: '2026-12-31',
  closing_time: '22:00',
  opening_time: '06:00',
  recurring: true,
  frequency: 'weekly',
  interval: 1,
  weekdays: ['friday'],
});
const scheduleMessages = {
  required: {
    label: 'validation.required',
    date_start: 'validation.date',
    date_end: 'validation.date',
    closing_time: 'validation.time',
    opening_time: 'validation.time',
    recurring: 'validation.required',
  },
  wrongTypeMessages: {
    date_start: 'validation.date',
    date_end: 'validation.date',
    closing_time: 'validation.time',
    opening_time: 'validation.time',
    frequency: 'validation.select',
    interval: 'validation.number',
  },
  names: ['label'],
} satisfies Pick<BodyEndpoint, 'required' | 'wrongTypeMessages' | 'names'>;

/** Issue 18: a directory entry (docs/maps.md), every field given. */
const plumberBody = () => ({
  company: 'Valid Plumbing',
  contact_name: 'Val Id',
  phone: '+33 1 23 45 67 89',
  email: 'val@plumbing.example',
  address: '1 quai du Rhône, Lyon',
  latitude: 45.76,
  longitude: 4.83,
  service_radius_km: 25,
  specialities: ['leak_repair'],
  availability: 'Weekdays',
  customer_id: w.customers.a.id,
});
const plumberWrongTypes = {
  email: 'validation.email',
  latitude: 'validation.latitude',
  longitude: 'validation.longitude',
  service_radius_km: 'validation.number',
} as const;

const BODY_ENDPOINTS: BodyEndpoint[] = [
  {
    name: 'create a plumber',
    method: 'POST',
    path: () => '/v1/plumbers/create',
    valid: plumberBody,
    required: { company: 'validation.required' },
    wrongTypeMessages: plumberWrongTypes,
    names: ['company'],
  },
  {
    name: 'update a plumber',
    method: 'PUT',
    path: () => `/v1/plumbers/${ids.plumber}/update`,
    valid: () => {
      const { customer_id: _owner, ...body } = plumberBody();
      return body;
    },
    required: {},
    wrongTypeMessages: plumberWrongTypes,
  },
  {
    name: 'log in',
    method: 'POST',
    path: () => '/v1/users/token',
    anonymous: true,
    valid: () => ({ email: 'provider@test.io', password: 'whatever-1' }),
    required: { email: 'validation.required', password: 'validation.required' },
  },
  {
    name: 'ask for a reset link',
    method: 'POST',
    path: () => '/v1/users/request_reset_password',
    anonymous: true,
    valid: () => ({ email: 'provider@test.io' }),
    required: { email: 'validation.required' },
  },
  ...(['/v1/users/reset_password', '/v1/users/set_password'] as const).map((path): BodyEndpoint => ({
    name: `set a password from an emailed link (${path})`,
    method: 'POST',
    path: () => path,
    anonymous: true,
    valid: () => ({ token: 'abc', password: 'new-password-1' }),
    required: { token: 'validation.required', password: 'validation.required' },
  })),
  {
    name: 'register',
    method: 'POST',
    path: () => '/v1/users/register',
    anonymous: true,
    valid: () => ({ ...person, claim_code: 'ABCD-EFGH-JKMN', terms_accepted: true }),
    required: {
      ...nameRequired,
      email: 'validation.required',
      claim_code: 'validation.required',
    },
    wrongTypeMessages: { terms_accepted: 'validation.terms' },
    names: ['firstname', 'lastname'],
  },
  {
    name: 'change the password',
    method: 'PUT',
    path: () => '/v1/users/update_password',
    valid: () => ({ current_password: 'old-password-1', password: 'new-password-1' }),
    required: { current_password: 'validation.required', password: 'validation.required' },
  },
  {
    name: 'log out',
    method: 'POST',
    path: () => '/v1/users/logout',
    valid: () => ({ refresh_token: 'abc' }),
    required: {},
  },
  {
    name: 'create a customer',
    method: 'POST',
    path: () => '/v1/customers/create',
    valid: () => ({
      name: 'New customer',
      technical_contact: { name: 'T' },
      subscription_date: '2025-01-31',
    }),
    required: { name: 'validation.required' },
    wrongTypeMessages: { subscription_date: 'validation.date' },
    names: ['name'],
  },
  {
    name: 'update a customer',
    method: 'PUT',
    path: () => `${A()}/update`,
    valid: () => ({ name: 'Customer A', operations_contact: { name: 'O' }, subscription_date: '2025-01-31' }),
    required: {},
    wrongTypeMessages: { subscription_date: 'validation.date' },
    names: ['name'],
  },
  { name: 'delete a customer', method: 'DELETE', path: () => `${A()}/delete`, ...confirm },
  {
    name: 'create a site',
    method: 'POST',
    path: () => `${A()}/sites/create`,
    valid: () => ({ name: 'New site' }),
    required: { name: 'validation.required' },
    names: ['name'],
  },
  {
    name: 'update a site',
    method: 'PUT',
    path: () => `${A()}/sites/${w.sites.a1.id}/update`,
    valid: () => ({ name: 'A site 1' }),
    required: {},
    names: ['name'],
  },
  { name: 'delete a site', method: 'DELETE', path: () => `${A()}/sites/${w.sites.a1.id}/delete`, ...confirm },
  ...(
    [
      ['provider manager', '/v1/flovea_managers', () => w.users.provider.id],
      ['customer manager', `/customer_managers`, () => w.users.cmA.id],
      ['site manager', `/site_managers`, () => w.users.smA.id],
    ] as const
  ).flatMap(([family, prefix, id]): BodyEndpoint[] => {
    const base = () => (prefix.startsWith('/v1') ? prefix : `${A()}${prefix}`);
    const isSite = family === 'site manager';
    return [
      {
        name: `create a ${family}`,
        method: 'POST',
        path: () => `${base()}/create`,
        valid: () => ({ ...person, language: 'fr', ...(isSite ? { site_id: [w.sites.a1.id] } : {}) }),
        required: {
          ...nameRequired,
          email: 'validation.required',
          ...(isSite ? { site_id: 'validation.at_least_one_site' } : {}),
        },
        wrongTypeMessages: {
          language: 'validation.select',
          ...(isSite ? { site_id: 'validation.at_least_one_site' } : {}),
        },
        names: ['firstname', 'lastname'],
      },
      {
        name: `update a ${family}`,
        method: 'PUT',
        path: () => `${base()}/${id()}/update`,
        valid: managerUpdate,
        required: {},
        names: ['firstname'],
      },
      { name: `delete a ${family}`, method: 'DELETE', path: () => `${base()}/${id()}/delete`, ...confirm },
    ];
  }),
  ...(
    [
      ['an end user', '/end_users', () => ids.endUser, 'zone_id', 'validation.at_least_one_zone'],
      ['a plumber user', '/plumbers', () => ids.plumberUser, 'site_id', 'validation.at_least_one_site'],
    ] as const
  ).flatMap(([family, prefix, id, places, placesMessage]): BodyEndpoint[] => {
    const placeIds = () => (places === 'zone_id' ? [ids.zone] : [w.sites.a1.id]);
    return [
      {
        name: `create ${family}`,
        method: 'POST',
        path: () => `${A()}${prefix}/create`,
        valid: () => ({ ...person, language: 'fr', [places]: placeIds() }),
        required: { ...nameRequired, email: 'validation.required', [places]: placesMessage },
        wrongTypeMessages: { language: 'validation.select', [places]: placesMessage },
        names: ['firstname', 'lastname'],
      },
      {
        name: `update ${family}`,
        method: 'PUT',
        path: () => `${A()}${prefix}/${id()}/update`,
        valid: () => ({ ...managerUpdate(), [places]: placeIds(), suspended: false }),
        required: {},
        names: ['firstname'],
      },
      {
        name: `delete ${family}`,
        method: 'DELETE',
        path: () => `${A()}${prefix}/${id()}/delete`,
        ...confirm,
      },
    ];
  }),
  {
    name: 'create a building',
    method: 'POST',
    path: () => `${A()}/sites/${w.sites.a1.id}/buildings/create`,
    valid: () => buildingBody({ nbfloor: 3, opening_hours: { monday: [{ start: '08:00', end: '18:00' }] } }),
    required: {
      name: 'validation.required',
      type: 'validation.select',
      address: 'validation.required',
      city: 'validation.required',
      zipCode: 'validation.required',
      country: 'validation.select',
      timezone: 'validation.timezone',
      volume_unit: 'validation.select',
      currency: 'validation.select',
      first_day_of_week: 'validation.select',
    },
    wrongTypeMessages: {
      type: 'validation.select',
      country: 'validation.select',
      timezone: 'validation.timezone',
      volume_unit: 'validation.select',
      currency: 'validation.select',
      first_day_of_week: 'validation.select',
      nbfloor: 'validation.number',
    },
    names: ['name', 'city'],
  },
  {
    name: 'update a building',
    method: 'PUT',
    path: () => `${B()}/update`,
    valid: () => ({ name: 'Main building', occupants: 20, price_per_unit: '2.5', weekend: ['sunday'] }),
    required: {},
    wrongTypeMessages: { occupants: 'validation.number', price_per_unit: 'validation.decimal' },
    names: ['name'],
  },
  { name: 'delete a building', method: 'DELETE', path: () => `${B()}/delete`, ...confirm },
  {
    name: 'add a floor',
    method: 'POST',
    path: () => `${B()}/floors/create`,
    valid: () => ({ label: 'First', occupants: 3 }),
    required: { label: 'validation.required' },
    wrongTypeMessages: { occupants: 'validation.number' },
    names: ['label'],
  },
  {
    name: 'modify a floor',
    method: 'PUT',
    path: () => `${B()}/floors/${ids.floor}/update`,
    valid: () => ({ label: 'Ground', occupants: 3 }),
    required: {},
    wrongTypeMessages: { occupants: 'validation.number' },
    names: ['label'],
  },
  { name: 'delete a floor', method: 'DELETE', path: () => `${B()}/floors/${ids.floor}/delete`, ...confirm },
  {
    name: 'create a zone',
    method: 'POST',
    path: () => `${B()}/zones/create`,
    valid: () => zoneBody({ water_point_number: 4, maintenance_mode: false }),
    required: {
      name: 'validation.required',
      profile: 'validation.select',
      flowbox_model: 'validation.select',
      water_temperature: 'validation.select',
    },
    wrongTypeMessages: {
      profile: 'validation.select',
      flowbox_model: 'validation.select',
      water_temperature: 'validation.select',
      water_point_number: 'validation.number',
    },
    names: ['name'],
  },
  {
    name: 'update a zone',
    method: 'PUT',
    path: () => `${Z()}/update`,
    valid: () => ({ name: 'Ground floor toilets', price_per_unit: '1', scheduled_closing_authorised: true }),
    required: {},
    wrongTypeMessages: { price_per_unit: 'validation.decimal' },
    names: ['name'],
  },
  { name: 'delete a zone', method: 'DELETE', path: () => `${Z()}/delete`, ...confirm },
  {
    name: 'add a water point',
    method: 'POST',
    path: () => `${Z()}/water_points/create`,
    valid: () => ({ label: 'Sink', type: 'sink', location: 'Kitchen', nominal_flow_lpm: '6' }),
    required: { label: 'validation.required', type: 'validation.select' },
    wrongTypeMessages: { type: 'validation.select', nominal_flow_lpm: 'validation.decimal' },
    names: ['label'],
  },
  {
    name: 'update a water point',
    method: 'PUT',
    path: () => `${Z()}/water_points/${ids.waterPoint}/update`,
    valid: () => ({ label: 'Tap', type: 'sink' }),
    required: {},
    wrongTypeMessages: { type: 'validation.select' },
    names: ['label'],
  },
  {
    name: 'delete a water point',
    method: 'DELETE',
    path: () => `${Z()}/water_points/${ids.waterPoint}/delete`,
    ...confirm,
  },
  {
    // docs/permissions.md "Registration": every field has a default; wrong types are refused.
    name: 'issue a claim code',
    method: 'POST',
    path: () => `${Z()}/claim_codes/create`,
    valid: () => ({ expires_in_days: 30, max_uses: 1, auto_approve: false }),
    required: {},
    wrongTypeMessages: { expires_in_days: 'validation.number', max_uses: 'validation.number' },
  },
  {
    name: 'confirm a registration',
    method: 'POST',
    path: () => '/v1/users/register/confirm',
    anonymous: true,
    valid: () => ({ token: 'abc', password: 'end-user-1' }),
    required: { token: 'validation.required', password: 'validation.required' },
  },
  {
    name: 'create a scheduled closing',
    method: 'POST',
    path: () => `${Z()}/schedules/create`,
    valid: scheduleBody,
    ...scheduleMessages,
  },
  {
    name: 'update a scheduled closing',
    method: 'PUT',
    path: () => `${Z()}/schedules/${ids.schedule}/update`,
    valid: scheduleBody,
    ...scheduleMessages,
  },
  {
    name: 'delete a scheduled closing',
    method: 'DELETE',
    path: () => `${Z()}/schedules/${ids.schedule}/delete`,
    ...confirm,
  },
  {
    name: 'create a pricing plan',
    method: 'POST',
    path: () => '/v1/pricing_plans/create',
    valid: planBody,
    required: {
      name: 'validation.required',
      regions: 'validation.required',
      from_date: 'validation.date',
      billing_type: 'validation.select',
      acquisition_type: 'validation.select',
      currency: 'validation.select',
      volume_unit: 'validation.select',
      ranges: 'validation.required',
    },
    wrongTypeMessages: {
      from_date: 'validation.date',
      billing_type: 'validation.select',
      acquisition_type: 'validation.select',
      currency: 'validation.select',
      volume_unit: 'validation.select',
    },
    names: ['name'],
  },
  {
    name: 'update a pricing plan',
    method: 'PUT',
    path: () => `/v1/pricing_plans/${ids.plan}/update`,
    valid: () => ({ name: 'Plan', is_default: false, regions: ['FR'] }),
    required: {},
    names: ['name'],
  },
  {
    name: 'delete a pricing plan',
    method: 'DELETE',
    path: () => `/v1/pricing_plans/${ids.plan}/delete`,
    ...confirm,
  },
  {
    name: "choose a zone's subscription",
    method: 'PUT',
    path: () => `${Z()}/subscription/update`,
    valid: () => ({ pricing_plan_id: ids.plan, service_level: 'basic' }),
    required: { pricing_plan_id: 'validation.select', service_level: 'validation.select' },
    wrongTypeMessages: { pricing_plan_id: 'validation.select', service_level: 'validation.select' },
  },
  {
    name: 'prepare the pairing of a flowbox',
    method: 'POST',
    path: () => `${Z()}/flowboxes/pair`,
    valid: () => ({ serial: 'FB-NEW-1', factory_secret: 'f'.repeat(43), floor_id: ids.floor }),
    required: { serial: 'validation.required', factory_secret: 'validation.required' },
  },
  {
    name: 'send a flowbox a command',
    method: 'POST',
    path: () => `${Z()}/flowboxes/${ids.flowbox}/commands/send`,
    valid: () => ({ name: 'valve_close' }),
    required: { name: 'validation.select' },
    wrongTypeMessages: { name: 'validation.select' },
  },
  {
    name: "save a zone's automatic-closing margins",
    method: 'PUT',
    path: () => `${Z()}/automation/update`,
    valid: () => ({
      automatic_closing_enabled: true,
      volume_margin_enabled: true,
      volume_margin: 2,
      duration_margin_enabled: true,
      duration_margin_minutes: 30,
    }),
    required: {
      automatic_closing_enabled: 'validation.required',
      volume_margin_enabled: 'validation.required',
      volume_margin: 'validation.required',
      duration_margin_enabled: 'validation.required',
      duration_margin_minutes: 'validation.required',
    },
    wrongTypeMessages: { volume_margin: 'validation.number', duration_margin_minutes: 'validation.number' },
  },
  {
    name: 'exit automatic closing',
    method: 'POST',
    path: () => `${Z()}/automation/exit`,
    ...confirm,
  },
  {
    name: 'detach a flowbox',
    method: 'DELETE',
    path: () => `${Z()}/flowboxes/${ids.flowbox}/detach`,
    ...confirm,
  },
  {
    name: 'schedule a report of a site',
    method: 'POST',
    path: () => `${A()}/sites/${w.sites.a1.id}/report_schedules/create`,
    valid: () => ({
      name: 'Weekly',
      frequency: 'weekly',
      formats: ['csv'],
      language: 'en',
      recipient_ids: [],
    }),
    required: {
      name: 'validation.required',
      frequency: 'validation.select',
      formats: 'validation.required',
      language: 'validation.select',
      recipient_ids: 'validation.required',
    },
    wrongTypeMessages: { frequency: 'validation.select', language: 'validation.select' },
    names: ['name'],
  },
  {
    name: 'generate a report of a customer now',
    method: 'POST',
    path: () => `${A()}/reports/generate`,
    valid: () => ({ from: '2026-11-23', to: '2026-11-29', language: 'fr', formats: ['pdf'] }),
    required: {
      from: 'validation.date',
      to: 'validation.date',
      language: 'validation.select',
      formats: 'validation.required',
    },
    wrongTypeMessages: { from: 'validation.date', to: 'validation.date', language: 'validation.select' },
  },
  {
    name: "update a flowbox's firmware",
    method: 'POST',
    path: () => `${Z()}/flowboxes/${ids.flowbox}/firmware`,
    valid: () => ({ image_id: GHOST }),
    required: { image_id: 'validation.invalid' },
    wrongTypeMessages: { image_id: 'validation.invalid' },
  },
  {
    name: 'roll firmware out',
    method: 'POST',
    path: () => '/v1/firmware/rollouts',
    valid: () => ({ image_id: GHOST, target: { customer_id: w.customers.a.id }, max_concurrent: 10 }),
    required: { image_id: 'validation.invalid', target: 'validation.required' },
    wrongTypeMessages: { image_id: 'validation.invalid', max_concurrent: 'validation.number' },
  },
  {
    name: 'change an alert category setting',
    method: 'PUT',
    path: () => '/v1/alerts/settings/maintenance/update',
    valid: () => ({
      subject: { en: 'Maintenance', fr: 'Maintenance' },
      enabled: true,
      premium_only: false,
      email: true,
    }),
    required: {},
  },
  {
    name: 'answer "Was this you?" on an alert',
    method: 'POST',
    path: () => `/v1/alerts/${ids.alert}/answer`,
    valid: () => ({ answer: 'me' }),
    required: { answer: 'validation.select' },
    wrongTypeMessages: { answer: 'validation.select' },
  },
  {
    name: "set a zone's away mode",
    method: 'PUT',
    path: () => `${Z()}/away_mode/update`,
    valid: () => ({
      from_date: '2030-01-10',
      from_time: '08:00',
      until_date: '2030-01-20',
      until_time: '18:00',
      close_on_flow: true,
    }),
    required: {
      from_date: 'validation.date',
      from_time: 'validation.time',
      until_date: 'validation.date',
      until_time: 'validation.time',
    },
    wrongTypeMessages: {
      from_date: 'validation.date',
      from_time: 'validation.time',
      until_date: 'validation.date',
      until_time: 'validation.time',
    },
  },
  {
    name: 'subscribe a browser to Web Push',
    method: 'POST',
    path: () => '/v1/push/subscriptions',
    valid: () => testBrowser('https://push.example/bad-input').subscription,
    required: { endpoint: 'validation.required', keys: 'validation.required' },
  },
  {
    name: "snooze one's own pushes of an alert",
    method: 'POST',
    path: () => `/v1/alerts/${ids.alert}/snooze`,
    valid: () => ({ minutes: 60 }),
    required: { minutes: 'validation.required' },
    wrongTypeMessages: { minutes: 'validation.number' },
  },
  {
    name: 'change how one is told of alerts',
    method: 'PUT',
    path: () => '/v1/notifications/preferences',
    valid: () => ({
      channels: { critical: { push: 'now', email: 'unopened' }, other: { push: 'off', email: 'now' } },
      quiet_hours: { start: '22:00', end: '07:00', time_zone: 'Europe/Paris' },
    }),
    required: { channels: 'validation.required', quiet_hours: 'validation.required' },
  },
  {
    name: 'say one opened alerts',
    method: 'POST',
    path: () => '/v1/alerts/opened',
    valid: () => ({ alert_ids: [ids.alert] }),
    required: { alert_ids: 'validation.required' },
  },
  {
    name: 'remove a browser from Web Push',
    method: 'DELETE',
    path: () => '/v1/push/subscriptions',
    valid: () => ({ endpoint: 'https://push.example/bad-input' }),
    required: { endpoint: 'validation.required' },
  },
  {
    name: 'add a webhook',
    method: 'POST',
    path: () => `${A()}/webhooks/create`,
    valid: () => ({
      url: 'https://hooks.example/bad-input',
      events: ['alert.opened'],
      description: 'ERP',
      enabled: false,
    }),
    required: { url: 'validation.required', events: 'validation.required' },
  },
  {
    name: 'change a webhook',
    method: 'PUT',
    path: () => `${A()}/webhooks/${ids.webhook}/update`,
    valid: () => ({ url: 'https://hooks.example/bad-input', events: ['alert.opened'], enabled: false }),
    required: {},
  },
  {
    name: 'change a firmware image',
    method: 'PATCH',
    path: () => `/v1/firmware/images/${GHOST}`,
    valid: () => ({ notes_en: 'Notes', notes_fr: 'Notes', released_to: 'all', status: 'deprecated' }),
    required: {},
    wrongTypeMessages: { status: 'validation.select' },
  },
];

/** The same kind of value never fits: a number for a string, a string for a boolean, an array for an object. */
function wrongTypeOf(value: unknown): unknown {
  if (typeof value === 'string') return 12345;
  if (typeof value === 'boolean') return 'true';
  if (Array.isArray(value)) return { 0: value[0] };
  return [value];
}

function send(
  endpoint: BodyEndpoint,
  language: Language,
  payload: unknown,
  headers: Record<string, string> = {},
) {
  const client = endpoint.anonymous ? new ApiClient(t.app, language) : providers[language];
  return client.request(endpoint.method, endpoint.path(), payload, headers);
}

describe.each(LANGUAGES)('request bodies, answered in %s', (language) => {
  const message = (key: MessageKey, params: Record<string, number> = {}) => translate(key, language, params);

  describe.each(BODY_ENDPOINTS)('$name', (endpoint) => {
    const requiredFields = Object.entries(endpoint.required);

    if (requiredFields.length > 0) {
      it('names each missing required field, and writes nothing', async () => {
        const before = await rowCounts();
        const body = expectCatalogueError(await send(endpoint, language, {}), language, 400);
        expect(body.code).toBe('errors.validation');
        for (const [path, key] of requiredFields)
          expect(body.details).toContainEqual({ path, message: message(key) });
        expect(await rowCounts()).toEqual(before);
      });
    }

    it('refuses values of the wrong type, field by field, and writes nothing', async () => {
      const before = await rowCounts();
      const valid = endpoint.valid();
      const broken = Object.fromEntries(Object.entries(valid).map(([k, v]) => [k, wrongTypeOf(v)]));
      const body = expectCatalogueError(await send(endpoint, language, broken), language, 400);
      const expected = Object.keys(valid).map((path) => ({
        path,
        message: message(endpoint.wrongTypeMessages?.[path] ?? 'validation.invalid'),
      }));
      expect(body.details).toEqual(expect.arrayContaining(expected));
      expect(await rowCounts()).toEqual(before);
    });

    it('refuses an array where an object is expected', async () => {
      const before = await rowCounts();
      const body = expectCatalogueError(await send(endpoint, language, [endpoint.valid()]), language, 400);
      expect(body.details).toEqual([{ path: '', message: message('validation.invalid') }]);
      expect(await rowCounts()).toEqual(before);
    });

    it('refuses malformed JSON', async () => {
      const before = await rowCounts();
      const res = await send(endpoint, language, '{"name": "unterminated', {
        'content-type': 'application/json',
      });
      expect(expectCatalogueError(res, language, 400).code).toBe('errors.validation');
      expect(await rowCounts()).toEqual(before);
    });

    it('refuses a body over 1 MiB with 413', async () => {
      const before = await rowCounts();
      const huge = JSON.stringify({ ...endpoint.valid(), padding: 'x'.repeat(1_100_000) });
      const res = await send(endpoint, language, huge, { 'content-type': 'application/json' });
      expect(expectCatalogueError(res, language, 413)).toEqual({
        code: 'errors.payload_too_large',
        message: message('errors.payload_too_large'),
      });
      expect(await rowCounts()).toEqual(before);
    });

    const names = endpoint.names;
    if (names) {
      it('takes a blank name for a missing one', async () => {
        const before = await rowCounts();
        const blank = Object.fromEntries(names.map((field) => [field, '   ']));
        const body = expectCatalogueError(
          await send(endpoint, language, { ...endpoint.valid(), ...blank }),
          language,
          400,
        );
        expect(body.details).toEqual(
          names.map((path) => ({ path, message: message('validation.required') })),
        );
        expect(await rowCounts()).toEqual(before);
      });

      it('refuses a 10,000-character name', async () => {
        const before = await rowCounts();
        const long = Object.fromEntries(names.map((field) => [field, 'x'.repeat(10_000)]));
        const res = await send(endpoint, language, { ...endpoint.valid(), ...long });
        const body = expectCatalogueError(res, language, 400);
        expect(body.details).toEqual(
          names.map((path) => ({
            path,
            message: message('validation.too_long', { max: 120 }),
          })),
        );
        expect(await rowCounts()).toEqual(before);
      });
    }
  });

  it('gives the exact length message of the catalogue', () => {
    expect(message('validation.too_long', { max: 120 })).toBe(
      language === 'en' ? 'Must be at most 120 characters' : 'Doit contenir au plus 120 caractères',
    );
  });

  it('refuses a body of another media type with 415', async () => {
    const res = await providers[language].request('POST', '/v1/customers/create', '<name>x</name>', {
      'content-type': 'application/xml',
    });
    expect(expectCatalogueError(res, language, 415).code).toBe('errors.unsupported_media_type');
  });
});

/** Every route with ids in its path, as [method, template, body]; `:c` customer, `:s` site, `:m` manager. */
const ID_ROUTES: [Method, string, Record<string, unknown>?][] = [
  ['GET', '/v1/customers/:c/info'],
  ...reportIdRoutes(),
  ['PUT', '/v1/customers/:c/update', { technical_contact: null }],
  ['DELETE', '/v1/customers/:c/delete', { confirm_name: 'x' }],
  ['GET', '/v1/customers/:c/sites/list'],
  ['POST', '/v1/customers/:c/sites/create', { name: 'Ghost site' }],
  ['GET', '/v1/customers/:c/sites/:s/info'],
  ['PUT', '/v1/customers/:c/sites/:s/update', { name: 'Renamed' }],
  ['DELETE', '/v1/customers/:c/sites/:s/delete', { confirm_name: 'x' }],
  ['GET', '/v1/flovea_managers/:m/info'],
  ['PUT', '/v1/flovea_managers/:m/update', { firstname: 'X' }],
  ['DELETE', '/v1/flovea_managers/:m/delete', { confirm_name: 'x' }],
  ...(['customer_managers', 'site_managers', 'end_users', 'plumbers'] as const).flatMap(
    (family): [Method, string, Record<string, unknown>?][] => [
      ['GET', `/v1/customers/:c/${family}/list`],
      [
        'POST',
        `/v1/customers/:c/${family}/create`,
        {
          ...person,
          email: `ghost.${family}@test.io`,
          ...(family === 'site_managers' || family === 'plumbers' ? { site_id: [GHOST] } : {}),
          ...(family === 'end_users' ? { zone_id: [GHOST] } : {}),
        },
      ],
      ['GET', `/v1/customers/:c/${family}/:m/info`],
      ['PUT', `/v1/customers/:c/${family}/:m/update`, { firstname: 'X' }],
      ['DELETE', `/v1/customers/:c/${family}/:m/delete`, { confirm_name: 'x' }],
    ],
  ),
  ...hierarchyIdRoutes(),
  ['PUT', '/v1/customers/:c/logo'],
  ['GET', '/v1/customers/:c/webhooks/list'],
  [
    'POST',
    '/v1/customers/:c/webhooks/create',
    { url: 'https://hooks.example/ghost', events: ['alert.opened'] },
  ],
  ['GET', '/v1/customers/:c/webhooks/:h/info'],
  ['PUT', '/v1/customers/:c/webhooks/:h/update', { description: 'Renamed' }],
  ['DELETE', '/v1/customers/:c/webhooks/:h/delete'],
  ['POST', '/v1/customers/:c/webhooks/:h/rotate_secret'],
  ['POST', '/v1/customers/:c/webhooks/:h/test'],
  ['GET', '/v1/customers/:c/webhooks/:h/deliveries'],
  ['PUT', '/v1/customers/:c/sites/:s/images/plan'],
  ['PUT', '/v1/customers/:c/sites/:s/buildings/:b/images/picture'],
  ['GET', '/v1/images/:i'],
  ['GET', '/v1/firmware/images/:i'],
  ['PATCH', '/v1/firmware/images/:i', { status: 'deprecated' }],
  ['GET', '/v1/pricing_plans/:p/info'],
  ['PUT', '/v1/pricing_plans/:p/update', { name: 'Renamed' }],
  ['DELETE', '/v1/pricing_plans/:p/delete', { confirm_name: 'x' }],
  ...consumptionIdRoutes(),
  ['GET', '/v1/customers/:c/sites/:s/buildings/:b/water_balance'],
  [
    'PUT',
    '/v1/customers/:c/sites/:s/buildings/:b/water_balance/settings',
    { main_supply_zone_id: null, alert_liters_per_night: 40, alert_share_pct: null },
  ],
  ['GET', '/v1/alerts/:a/info'],
  ['POST', '/v1/alerts/:a/silence'],
  ['POST', '/v1/alerts/:a/unsilence'],
  ['POST', '/v1/alerts/:a/resolve'],
  ['POST', '/v1/alerts/:a/answer', { answer: 'me' }],
  ['POST', '/v1/alerts/:a/snooze', { minutes: 60 }],
  ['GET', '/v1/firmware/rollouts/:r'],
  ['GET', '/v1/firmware/rollouts/:r/devices'],
  ['GET', '/v1/firmware/rollouts/:r/timeline'],
  ['POST', '/v1/firmware/rollouts/:r/pause'],
];

/** Report calls of a customer and of a site (docs/reports.md); `:d` a report schedule, `:e` a report. */
function reportIdRoutes(): [Method, string, Record<string, unknown>?][] {
  const schedule = {
    name: 'Ghost',
    frequency: 'weekly',
    formats: ['csv'],
    language: 'en',
    recipient_ids: [],
  };
  return ['/v1/customers/:c', '/v1/customers/:c/sites/:s'].flatMap(
    (scope): [Method, string, Record<string, unknown>?][] => [
      ['GET', `${scope}/report_schedules/list`],
      ['GET', `${scope}/report_schedules/recipients`],
      ['POST', `${scope}/report_schedules/create`, schedule],
      ['GET', `${scope}/report_schedules/:d/info`],
      ['PUT', `${scope}/report_schedules/:d/update`, schedule],
      ['DELETE', `${scope}/report_schedules/:d/delete`, { confirm_name: 'Ghost' }],
      ['GET', `${scope}/reports/list`],
      [
        'POST',
        `${scope}/reports/generate`,
        { from: '2026-11-23', to: '2026-11-29', language: 'en', formats: ['csv'] },
      ],
      ['GET', `${scope}/reports/:e/report.csv`],
      ['GET', `${scope}/reports/:e/report.pdf`],
    ],
  );
}

/** Consumption calls of each scope (docs/consumption.md). */
function consumptionIdRoutes(): [Method, string][] {
  const site = '/v1/customers/:c/sites/:s';
  const building = `${site}/buildings/:b`;
  const zone = `${building}/zones/:z`;
  return [
    ...['/v1/customers/:c', site, building, zone].flatMap((scope): [Method, string][] => [
      ['GET', `${scope}/consumption?window=week`],
      ['GET', `${scope}/consumption/export.csv?window=week`],
    ]),
    ['GET', `${building}/consumption/zones`],
    ['GET', `${site}/consumption/zones`],
    ['GET', `${zone}/consumption/details`],
    ['GET', `${zone}/consumption/price_tiers`],
  ];
}

/** `:b` building, `:f` floor, `:z` zone, `:w` water point, `:i` image, `:x` flowbox, `:k` command. */
function hierarchyIdRoutes(): [Method, string, Record<string, unknown>?][] {
  const building = '/v1/customers/:c/sites/:s/buildings/:b';
  const zone = `${building}/zones/:z`;
  return [
    ['GET', '/v1/customers/:c/zones/list'],
    ['GET', '/v1/customers/:c/sites/:s/buildings/list'],
    ['POST', '/v1/customers/:c/sites/:s/buildings/create', buildingBody({ name: 'Ghost building' })],
    ['GET', `${building}/info`],
    ['PUT', `${building}/update`, { name: 'Renamed' }],
    ['DELETE', `${building}/delete`, { confirm_name: 'x' }],
    ['GET', `${building}/events`],
    ['GET', `${building}/floors/list`],
    ['POST', `${building}/floors/create`, { label: 'Ghost floor' }],
    ['PUT', `${building}/floors/:f/update`, { label: 'Renamed' }],
    ['DELETE', `${building}/floors/:f/delete`, { confirm_name: 'x' }],
    ['GET', `${building}/zones/list`],
    ['POST', `${building}/zones/create`, zoneBody({ name: 'Ghost zone' })],
    ['GET', `${zone}/info`],
    ['PUT', `${zone}/update`, { name: 'Renamed' }],
    ['DELETE', `${zone}/delete`, { confirm_name: 'x' }],
    ['GET', `${zone}/events`],
    ['GET', `${zone}/water_points/list`],
    ['POST', `${zone}/water_points/create`, { label: 'Ghost tap', type: 'sink' }],
    ['PUT', `${zone}/water_points/:w/update`, { label: 'Renamed' }],
    ['DELETE', `${zone}/water_points/:w/delete`, { confirm_name: 'x' }],
    ['GET', `${zone}/subscription/info`],
    ['PUT', `${zone}/subscription/update`, { pricing_plan_id: GHOST, service_level: 'basic' }],
    ['GET', `${zone}/flowboxes/list`],
    ['POST', `${zone}/flowboxes/pair`, { serial: 'FB-GHOST-1', factory_secret: 'f'.repeat(43) }],
    ['GET', `${zone}/flowboxes/:x/info`],
    ['POST', `${zone}/flowboxes/:x/validate`],
    ['POST', `${zone}/flowboxes/:x/refuse`],
    ['POST', `${zone}/flowboxes/:x/unpair`],
    ['DELETE', `${zone}/flowboxes/:x/detach`, { confirm_name: 'x' }],
    ['POST', `${zone}/flowboxes/:x/commands/send`, { name: 'reboot' }],
    ['GET', `${zone}/flowboxes/:x/commands/list`],
    ['GET', `${zone}/flowboxes/:x/commands/:k/info`],
    ['GET', `${zone}/flowboxes/:x/firmware`],
    ['POST', `${zone}/flowboxes/:x/firmware`, { image_id: GHOST }],
    ['GET', `${zone}/automation/info`],
    [
      'PUT',
      `${zone}/automation/update`,
      {
        automatic_closing_enabled: false,
        volume_margin_enabled: false,
        volume_margin: null,
        duration_margin_enabled: false,
        duration_margin_minutes: null,
      },
    ],
    ['POST', `${zone}/automation/exit`, { confirm_name: 'x' }],
    ['GET', `${zone}/away_mode/info`],
    [
      'PUT',
      `${zone}/away_mode/update`,
      { from_date: '2030-01-10', from_time: '08:00', until_date: '2030-01-20', until_time: '18:00' },
    ],
    ['POST', `${zone}/away_mode/clear`],
    ['GET', `${zone}/water`],
    ['GET', `${zone}/schedules/list`],
    ['GET', `${zone}/schedules/occurrences`],
    ['POST', `${zone}/schedules/create`, scheduleBody()],
    ['GET', `${zone}/schedules/:d/info`],
    ['PUT', `${zone}/schedules/:d/update`, scheduleBody()],
    ['DELETE', `${zone}/schedules/:d/delete`, { confirm_name: 'x' }],
    ['GET', `${zone}/claim_codes/list`],
    ['POST', `${zone}/claim_codes/create`, {}],

    ['POST', `${zone}/claim_codes/:q/revoke`],
    ['GET', '/v1/customers/:c/registrations/list'],
    ['POST', '/v1/customers/:c/registrations/:g/approve'],
    ['POST', '/v1/customers/:c/registrations/:g/refuse'],
  ];
}

const PARAM_NAMES: Record<string, string> = {
  ':c': 'customerId',
  ':s': 'siteId',
  ':m': 'managerId',
  ':b': 'buildingId',
  ':f': 'floorId',
  ':z': 'zoneId',
  ':w': 'waterPointId',
  ':i': 'imageId',
  ':p': 'pricingPlanId',
  ':x': 'flowboxId',
  ':k': 'commandId',
  ':d': 'scheduleId',
  ':a': 'alertId',
  ':r': 'rolloutId',
  ':q': 'codeId',
  ':g': 'registrationId',
  ':e': 'reportId',
  ':h': 'webhookId',
};
const ID_PARAM = /:[csmbfzwipxkdarqghe]\b/g;

function fillPath(template: string, replace: Record<string, string> = {}): string {
  const real: Record<string, string> = {
    ':c': w.customers.a.id,
    ':s': w.sites.a1.id,
    ':m': managerIn(template),
    ':b': ids.building,
    ':f': ids.floor,
    ':z': ids.zone,
    ':w': ids.waterPoint,
    ':i': GHOST,
    ':p': ids.plan,
    ':x': ids.flowbox,
    ':k': ids.command,
    ':d': ids.schedule,
    ':a': ids.alert,
    ':r': GHOST,
    ':q': GHOST,
    ':g': GHOST,
    ':h': ids.webhook,
    ':e': GHOST,
    ...replace,
  };
  return template.replace(ID_PARAM, (p) => real[p]!);
}

/** The real member of the family a template names, for `:m`. */
function managerIn(template: string): string {
  if (template.includes('/site_managers/')) return w.users.smA.id;
  if (template.includes('/end_users/')) return ids.endUser;
  if (template.includes('/customers/:c/plumbers/')) return ids.plumberUser;
  if (template.includes('flovea')) return GHOST;
  return w.users.cmA.id;
}

const paramCases = ID_ROUTES.flatMap(([method, template, body]) =>
  (template.match(ID_PARAM) ?? []).map((param) => ({ method, template, body, param })),
);

describe('ids in the path', () => {
  it.each(paramCases)(
    '$method $template refuses a malformed $param with 400',
    async ({ method, template, body, param }) => {
      for (const language of LANGUAGES) {
        const before = await rowCounts();
        const res = await providers[language].request(
          method,
          fillPath(template, { [param]: 'not-a-uuid' }),
          body,
        );
        const error = expectCatalogueError(res, language, 400);
        expect(error.details).toContainEqual({
          path: PARAM_NAMES[param],
          message: translate('validation.invalid', language),
        });
        expect(await rowCounts()).toEqual(before);
      }
    },
  );

  it.each(paramCases)(
    '$method $template answers 404 to a provider for an unknown $param, and writes nothing',
    async ({ method, template, body, param }) => {
      for (const language of LANGUAGES) {
        const before = await rowCounts();
        const res = await providers[language].request(method, fillPath(template, { [param]: GHOST }), body);
        expect(expectCatalogueError(res, language, 404).code).toBe('errors.not_found');
        expect(await rowCounts()).toEqual(before);
      }
    },
  );

  it.each(ID_ROUTES.filter(([, template]) => template.includes(':c')))(
    '%s %s answers 403 to a customer manager for an unknown customer',
    async (method, template, body) => {
      const before = await rowCounts();
      const res = await cmA.request(method, fillPath(template, { ':c': GHOST, ':m': GHOST }), body);
      expect(expectCatalogueError(res, 'en', 403).code).toBe('errors.forbidden');
      expect(await rowCounts()).toEqual(before);
    },
  );
});

describe('list queries', () => {
  const LISTS = [
    '/v1/customers/list',
    '/v1/flovea_managers/list',
    '/v1/outbox',
    `/v1/customers/:c/sites/list`,
    `/v1/customers/:c/customer_managers/list`,
    `/v1/customers/:c/site_managers/list`,
    `/v1/customers/:c/end_users/list`,
    `/v1/customers/:c/plumbers/list`,
    '/v1/customers/:c/zones/list',
    '/v1/customers/:c/sites/:s/buildings/list',
    '/v1/customers/:c/sites/:s/buildings/:b/floors/list',
    '/v1/customers/:c/sites/:s/buildings/:b/zones/list',
    '/v1/customers/:c/sites/:s/buildings/:b/zones/:z/water_points/list',
    '/v1/pricing_plans/list',
  ];
  const BAD_QUERIES: [string, string, MessageKey, Record<string, number>?][] = [
    ['limit=0', 'limit', 'validation.min_one'],
    ['limit=abc', 'limit', 'validation.number'],
    ['limit=2.5', 'limit', 'validation.integer'],
    ['limit=501', 'limit', 'validation.max', { max: 500 }],
    ['offset=-1', 'offset', 'validation.invalid'],
    [`search=${'x'.repeat(121)}`, 'search', 'validation.too_long', { max: 120 }],
    // PostgreSQL refuses U+0000 in a query parameter: a 500 before (found by the fuzz step).
    ['search=a%00b', 'search', 'validation.forbidden_character'],
  ];

  it.each(LISTS)('%s refuses bad paging and search values with a message for the field', async (template) => {
    for (const language of LANGUAGES) {
      for (const [query, path, key, params] of BAD_QUERIES) {
        const res = await providers[language].get(`${fillPath(template)}?${query}`);
        const body = expectCatalogueError(res, language, 400);
        expect(body.details, query).toEqual([{ path, message: translate(key, language, params) }]);
      }
    }
  });

  it.each(['site_managers', 'plumbers', 'zones'])(
    'refuses a site_id that is not a uuid on the %s list',
    async (list) => {
      const res = await providers.fr.get(`${A()}/${list}/list?site_id=site-1`);
      expect(expectCatalogueError(res, 'fr', 400).details).toEqual([
        { path: 'site_id', message: "Cette valeur n'est pas valide" },
      ]);
    },
  );
});

describe('building, zone and water point values', () => {
  type Case = [string, Record<string, unknown>, string, MessageKey, Record<string, number>?];
  const building: Case[] = [
    ['an unknown building type', { type: 'castle' }, 'type', 'validation.select'],
    ['a time zone that does not exist', { timezone: 'Mars/Olympus_Mons' }, 'timezone', 'validation.timezone'],
    ['a UTC offset for a time zone', { timezone: '+01:00' }, 'timezone', 'validation.timezone'],
    ['an unknown currency', { currency: 'BTC' }, 'currency', 'validation.select'],
    ['an unknown volume unit', { volume_unit: 'barrel' }, 'volume_unit', 'validation.select'],
    ['a country that does not exist', { country: 'ZZ' }, 'country', 'validation.select'],
    ['0 floors', { nbfloor: 0 }, 'nbfloor', 'validation.min_one'],
    ['2.5 occupants', { occupants: 2.5 }, 'occupants', 'validation.integer'],
    ['a count written as text', { nbequipment: '12' }, 'nbequipment', 'validation.number'],
    ['a price as a float', { price_per_unit: 2.5 }, 'price_per_unit', 'validation.decimal'],
    ['a price with 5 decimals', { price_per_unit: '2.12345' }, 'price_per_unit', 'validation.decimal'],
    ['a negative price', { price_per_unit: '-1' }, 'price_per_unit', 'validation.decimal'],
    ['a weekend day twice', { weekend: ['sunday', 'sunday'] }, 'weekend', 'validation.unique'],
    ['an unknown weekday', { first_day_of_week: 'funday' }, 'first_day_of_week', 'validation.select'],
    [
      'a 10,000-character address',
      { address: 'x'.repeat(10_000) },
      'address',
      'validation.too_long',
      { max: 200 },
    ],
    [
      'overlapping opening hours',
      {
        opening_hours: {
          tuesday: [
            { start: '08:00', end: '12:00' },
            { start: '11:30', end: '14:00' },
          ],
        },
      },
      'opening_hours.tuesday.1',
      'validation.hours_overlap',
    ],
    [
      'opening hours that end before they start',
      { opening_hours: { friday: [{ start: '18:00', end: '08:00' }] } },
      'opening_hours.friday.0.end',
      'validation.hours_order',
    ],
    [
      'a time that is not HH:mm',
      { opening_hours: { monday: [{ start: '8h', end: '12:00' }] } },
      'opening_hours.monday.0.start',
      'validation.time',
    ],
    [
      'seven intervals in one day',
      {
        opening_hours: {
          monday: Array.from({ length: 7 }, (_, i) => ({ start: `0${i}:00`, end: `0${i}:30` })),
        },
      },
      'opening_hours.monday',
      'validation.max',
      { max: 6 },
    ],
  ];

  it.each(building)(
    'a building with %s is refused, and nothing is written',
    async (_what, change, path, key, params) => {
      for (const language of LANGUAGES) {
        const before = await rowCounts();
        const res = await providers[language].post(
          `${A()}/sites/${w.sites.a1.id}/buildings/create`,
          buildingBody(change),
        );
        const body = expectCatalogueError(res, language, 400);
        expect(body.details).toEqual([{ path, message: translate(key, language, params) }]);
        expect(await rowCounts()).toEqual(before);
      }
    },
  );

  const zone: Case[] = [
    ['an unknown profile', { profile: 'spa' }, 'profile', 'validation.select'],
    ['an unknown flowbox model', { flowbox_model: 'three_inches_v1' }, 'flowbox_model', 'validation.select'],
    [
      'a service level (it comes from the subscription)',
      { service_level: 'premium' },
      'service_level',
      'validation.service_level_from_subscription',
    ],
    ['lukewarm water', { water_temperature: 'lukewarm' }, 'water_temperature', 'validation.select'],
    ['0 water points', { water_point_number: 0 }, 'water_point_number', 'validation.min_one'],
    ['a floor id that is not a uuid', { floor_id: 'ground' }, 'floor_id', 'validation.invalid'],
    ['a floor that does not exist', { floor_id: GHOST }, 'floor_id', 'validation.select'],
    ['a mode that is not a boolean', { maintenance_mode: 'yes' }, 'maintenance_mode', 'validation.invalid'],
  ];

  it.each(zone)('a zone with %s is refused, and nothing is written', async (_what, change, path, key) => {
    const before = await rowCounts();
    const res = await providers.fr.post(`${B()}/zones/create`, zoneBody(change));
    const body = expectCatalogueError(res, 'fr', 400);
    expect(body.details).toEqual([{ path, message: translate(key, 'fr') }]);
    expect(await rowCounts()).toEqual(before);
  });

  it('a water point of an unknown type is refused with "Please select an option"', async () => {
    const before = await rowCounts();
    const res = await providers.en.post(`${Z()}/water_points/create`, { label: 'Spa', type: 'jacuzzi' });
    expect(expectCatalogueError(res, 'en', 400).details).toEqual([
      { path: 'type', message: 'Please select an option' },
    ]);
    expect(await rowCounts()).toEqual(before);
  });
});

describe('text a database cannot store (found by the fuzz step, docs/fuzz.md)', () => {
  it('a NUL character or a lone surrogate is refused as its field, in text and in JSON columns', async () => {
    const before = await rowCounts();
    for (const language of LANGUAGES) {
      const waterPoint = await providers[language].put(`${Z()}/water_points/${ids.waterPoint}/update`, {
        label: 'Tap',
        location: 'nul\u0000inside',
      });
      const contacts = await providers[language].post('/v1/customers/create', {
        name: 'Surrogates Ltd',
        operations_contact: { name: 'a\udc00b' },
        administrative_contact: { phone: '\ud800' },
      });
      const message = translate('validation.forbidden_character', language);
      expect(expectCatalogueError(waterPoint, language, 400).details).toEqual([
        { path: 'location', message },
      ]);
      expect(expectCatalogueError(contacts, language, 400).details).toEqual([
        { path: 'operations_contact.name', message },
        { path: 'administrative_contact.phone', message },
      ]);
    }
    expect(await rowCounts()).toEqual(before);
  });

  it('is found at the bottom of a body nested 100,000 deep, without running out of stack', async () => {
    const depth = 100_000;
    const body = `{"name":${'{"a":'.repeat(depth)}"\\u0000"${'}'.repeat(depth)}}`;
    const res = await providers.en.request('POST', `${A()}/sites/create`, body, {
      'content-type': 'application/json',
    });
    const [issue] = expectCatalogueError(res, 'en', 400).details ?? [];
    expect(issue?.message).toBe(translate('validation.forbidden_character', 'en'));
    expect(issue?.path).toBe(['name', ...Array<string>(depth).fill('a')].join('.'));
  });
});

describe('unknown fields', () => {
  it('are ignored when creating a customer: ids and counts come from the server', async () => {
    const res = await providers.en.post('/v1/customers/create', {
      name: 'Extra fields Ltd',
      id: GHOST,
      site_count: 99,
      flowbox_count: 7,
      created_at: '2000-01-01T00:00:00.000Z',
      logo: 'http://evil.example/logo.png',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'Extra fields Ltd',
      site_count: 0,
      flowbox_count: 0,
      logo: null,
    });
    expect(res.json().id).not.toBe(GHOST);
    expect(res.json().created_at).not.toMatch(/^2000/);
  });

  it('are ignored when updating a site: it stays with its customer', async () => {
    const res = await providers.en.put(`${A()}/sites/${w.sites.a2.id}/update`, {
      customer_id: w.customers.b.id,
      id: GHOST,
      plan: 'http://evil.example/plan.png',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: w.sites.a2.id,
      customer_id: w.customers.a.id,
      name: 'A site 2',
      plan: null,
    });
  });

  it('are ignored when updating a manager: role, customer, status and password stay', async () => {
    const res = await providers.en.put(`${A()}/customer_managers/${w.users.cmA.id}/update`, {
      role: ROLES.flovea_manager,
      customer_id: w.customers.b.id,
      status: 'invited',
      password: 'hijack-1234',
      permissions: { 'made.up': 'authorised' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({
      role: ROLES.customer_manager,
      customer_id: w.customers.a.id,
      status: 'active',
    });
    expect(res.json().user.permissions).not.toHaveProperty('made.up');
    await loginAs(t.app, 'cm.a@test.io');
  });
});

describe("people's places (docs/permissions.md, issue 18)", () => {
  type Case = [string, string, () => Record<string, unknown>, string, MessageKey];
  const body = (places: Record<string, unknown>) => ({ ...person, email: 'places@test.io', ...places });
  const CASES: Case[] = [
    [
      'a zone given twice to a new end user',
      '/end_users/create',
      () => body({ zone_id: [ids.zone, ids.zone] }),
      'zone_id',
      'validation.unique',
    ],
    [
      'a site given twice to a new plumber',
      '/plumbers/create',
      () => body({ site_id: [w.sites.a1.id, w.sites.a1.id] }),
      'site_id',
      'validation.unique',
    ],
    [
      'a site given twice to a new site manager, in two spellings',
      '/site_managers/create',
      () => body({ site_id: [w.sites.a1.id, w.sites.a1.id.toUpperCase()] }),
      'site_id',
      'validation.unique',
    ],
    [
      'a zone given twice to an end user',
      `/end_users/:eu/update`,
      () => ({ zone_id: [ids.zone, ids.zone] }),
      'zone_id',
      'validation.unique',
    ],
    [
      'a site given twice to a plumber',
      `/plumbers/:pl/update`,
      () => ({ site_id: [w.sites.a1.id, w.sites.a1.id] }),
      'site_id',
      'validation.unique',
    ],
    [
      'a site given twice to a site manager',
      `/site_managers/:sm/update`,
      () => ({ site_id: [w.sites.a1.id, w.sites.a1.id] }),
      'site_id',
      'validation.unique',
    ],
    [
      'sites for a new end user',
      '/end_users/create',
      () => body({ zone_id: [ids.zone], site_id: [w.sites.a1.id] }),
      'site_id',
      'validation.zones_not_sites',
    ],
    [
      'sites for an end user',
      '/end_users/:eu/update',
      () => ({ site_id: [w.sites.a1.id] }),
      'site_id',
      'validation.zones_not_sites',
    ],
    [
      'zones for a new plumber',
      '/plumbers/create',
      () => body({ site_id: [w.sites.a1.id], zone_id: [ids.zone] }),
      'zone_id',
      'validation.sites_not_zones',
    ],
    [
      'zones for a plumber',
      '/plumbers/:pl/update',
      () => ({ zone_id: [ids.zone] }),
      'zone_id',
      'validation.sites_not_zones',
    ],
  ];
  const urlOf = (path: string) =>
    `${A()}${path
      .replace(':eu', ids.endUser)
      .replace(':pl', ids.plumberUser)
      .replace(':sm', w.users.smA.id)}`;

  it.each(CASES)(
    'refuses %s with a message on the field, and writes nothing',
    async (_what, path, body, field, key) => {
      for (const language of LANGUAGES) {
        const before = await rowCounts();
        const res = await providers[language].request(
          path.endsWith('create') ? 'POST' : 'PUT',
          urlOf(path),
          body(),
        );
        expect(expectCatalogueError(res, language, 400).details).toEqual([
          { path: field, message: translate(key, language) },
        ]);
        expect(await rowCounts()).toEqual(before);
      }
    },
  );

  it.each(['/end_users/create', '/plumbers/:pl/update'])('refuses an unknown field on %s', async (path) => {
    const before = await rowCounts();
    const valid = path.endsWith('create') ? body({ zone_id: [ids.zone] }) : {};
    const res = await providers.en.request(path.endsWith('create') ? 'POST' : 'PUT', urlOf(path), {
      ...valid,
      role: ROLES.flovea_manager,
    });
    expect(expectCatalogueError(res, 'en', 400).code).toBe('errors.validation');
    expect(await rowCounts()).toEqual(before);
  });
});

describe('unknown paths', () => {
  it.each([
    ['GET', '/v1/nothing-here'],
    ['POST', '/v1/customers/do-something'],
    ['GET', '/v1'],
    ['DELETE', '/v1/users/me'],
  ] as const)('%s %s answers 404 JSON, signed in or not', async (method, url) => {
    for (const client of [providers.fr, new ApiClient(t.app, 'fr')]) {
      const res = await client.request(method, url);
      expect(expectCatalogueError(res, 'fr', 404)).toEqual({
        code: 'errors.not_found',
        message: "Cette ressource n'existe pas ou ne vous est pas accessible",
      });
    }
  });
});

describe('consumption queries', () => {
  const zone = '/v1/customers/:c/sites/:s/buildings/:b/zones/:z';
  const SERIES = [
    '/v1/customers/:c/consumption',
    '/v1/customers/:c/sites/:s/consumption',
    '/v1/customers/:c/sites/:s/buildings/:b/consumption',
    `${zone}/consumption`,
    `${zone}/consumption/details`,
    '/v1/customers/:c/sites/:s/consumption/zones',
  ];
  it.each(SERIES)('%s refuses a window that is not day, week, month or year', async (template) => {
    for (const language of LANGUAGES) {
      for (const query of ['window=hour', 'window=', 'window=DAY']) {
        const res = await providers[language].get(`${fillPath(template)}?${query}`);
        expect(expectCatalogueError(res, language, 400).details, query).toEqual([
          { path: 'window', message: translate('validation.select', language) },
        ]);
      }
    }
  });

  it('refuses a comparison that is neither previous nor none', async () => {
    const res = await providers.fr.get(`${fillPath(zone)}/consumption?compare=last_year`);
    expect(expectCatalogueError(res, 'fr', 400).details).toEqual([
      { path: 'compare', message: translate('validation.select', 'fr') },
    ]);
  });

  const EXPORT_CASES: [string, string, MessageKey][] = [
    ['from=2026-03-10&to=2026-03-01', 'to', 'validation.end_after_start'],
    ['from=2026-02-30&to=2026-03-01', 'from', 'validation.date'],
    ['from=01/03/2026&to=2026-03-01', 'from', 'validation.date'],
    ['from=2026-03-01', 'from', 'validation.required'],
    ['', 'from', 'validation.required'],
    ['from=2020-01-01&to=2026-01-01', 'to', 'validation.export_too_long'],
    ['window=decade', 'window', 'validation.select'],
  ];
  it.each(EXPORT_CASES)('the CSV export refuses %s with a message on %s', async (query, path, key) => {
    for (const language of LANGUAGES) {
      const res = await providers[language].get(`${fillPath(zone)}/consumption/export.csv?${query}`);
      expect(expectCatalogueError(res, language, 400).details).toEqual([
        { path, message: translate(key, language) },
      ]);
    }
    expect(translate('validation.end_after_start', 'en')).toBe('Should be posterior start date');
  });
});

describe('water balance queries and settings (docs/automation.md "Building water balance")', () => {
  const building = '/v1/customers/:c/sites/:s/buildings/:b';
  const QUERIES: [string, string, MessageKey][] = [
    ['by=week', 'by', 'validation.select'],
    ['from=2026-03-10&to=2026-03-01', 'to', 'validation.end_after_start'],
    ['from=2026-01-01&to=2026-02-15', 'to', 'validation.water_balance_too_long'],
    ['from=2026-02-30&to=2026-03-01', 'from', 'validation.date'],
    ['from=2026-03-01', 'to', 'validation.required'],
  ];
  it.each(QUERIES)('the balance refuses %s with a message on %s', async (query, path, key) => {
    for (const language of LANGUAGES) {
      const res = await providers[language].get(`${fillPath(building)}/water_balance?${query}`);
      expect(expectCatalogueError(res, language, 400).details).toEqual([
        { path, message: translate(key, language) },
      ]);
    }
  });

  const settings = { main_supply_zone_id: null, alert_liters_per_night: null, alert_share_pct: null };
  const BODIES: [Record<string, unknown>, string, MessageKey, Record<string, number>?][] = [
    [{ ...settings, main_supply_zone_id: 'kitchen' }, 'main_supply_zone_id', 'validation.invalid'],
    [{ ...settings, alert_liters_per_night: 0 }, 'alert_liters_per_night', 'validation.min_one'],
    [{ ...settings, alert_liters_per_night: 2.5 }, 'alert_liters_per_night', 'validation.integer'],
    [{ ...settings, alert_liters_per_night: '40' }, 'alert_liters_per_night', 'validation.number'],
    [{ ...settings, alert_share_pct: 101 }, 'alert_share_pct', 'validation.max', { max: 100 }],
    [{ alert_liters_per_night: 40, alert_share_pct: null }, 'main_supply_zone_id', 'validation.invalid'],
  ];
  it.each(BODIES)(
    'the settings refuse %j with a message on %s, and write nothing',
    async (body, path, key, params) => {
      for (const language of LANGUAGES) {
        const before = await rowCounts();
        const res = await providers[language].put(`${fillPath(building)}/water_balance/settings`, body);
        expect(expectCatalogueError(res, language, 400).details).toEqual([
          { path, message: translate(key, language, params) },
        ]);
        expect(await rowCounts()).toEqual(before);
      }
    },
  );
});

describe('fleet calls (docs/fleet.md)', () => {
  const CASES: [string, string, MessageKey, Record<string, number>?][] = [
    ['limit=0', 'limit', 'validation.min_one'],
    ['limit=abc', 'limit', 'validation.number'],
    ['limit=2.5', 'limit', 'validation.integer'],
    ['limit=201', 'limit', 'validation.max', { max: 200 }],
    ['sort=colour', 'sort', 'validation.select'],
    ['dir=up', 'dir', 'validation.select'],
    ['offline=yes', 'offline', 'validation.select'],
    ['closed=1', 'closed', 'validation.select'],
    ['locked=', 'locked', 'validation.select'],
    ['leaking=TRUE', 'leaking', 'validation.select'],
    ['model=ten_inches', 'model', 'validation.select'],
    [`firmware_version=${'9'.repeat(65)}`, 'firmware_version', 'validation.too_long', { max: 64 }],
    [`q=${'A'.repeat(65)}`, 'q', 'validation.too_long', { max: 64 }],
    ['customer_id=customer-a', 'customer_id', 'validation.invalid'],
    ['site_id=12', 'site_id', 'validation.invalid'],
    ['cursor=bm9wZQ', 'cursor', 'validation.invalid'],
    [`cursor=${Buffer.from('["serial",1,"A"]').toString('base64url')}`, 'cursor', 'validation.invalid'],
    [`cursor=${'x'.repeat(301)}`, 'cursor', 'validation.too_long', { max: 300 }],
  ];
  it.each(CASES)('the fleet list refuses %s with a message on %s', async (query, path, key, params) => {
    for (const language of LANGUAGES) {
      const res = await providers[language].get(`/v1/fleet/list?${query}`);
      expect(expectCatalogueError(res, language, 400).details, query).toEqual([
        { path, message: translate(key, language, params) },
      ]);
    }
  });

  it.each(CASES.filter(([query]) => !query.startsWith('cursor') && !query.startsWith('limit')))(
    'the fleet export refuses %s with a message on %s',
    async (query, path, key, params) => {
      for (const language of LANGUAGES) {
        const res = await providers[language].get(`/v1/fleet/export.csv?${query}`);
        expect(expectCatalogueError(res, language, 400).details, query).toEqual([
          { path, message: translate(key, language, params) },
        ]);
      }
    },
  );

  it.each(['customer_id', 'site_id'])(
    'the fleet list answers a provider 404 for an unknown %s',
    async (filter) => {
      for (const language of LANGUAGES) {
        const res = await providers[language].get(`/v1/fleet/list?${filter}=${GHOST}`);
        expect(expectCatalogueError(res, language, 404).code).toBe('errors.not_found');
      }
    },
  );

  it('a serial search of LIKE wildcards and quotes is an empty list, not an error', async () => {
    for (const q of ['%', '_', "'", '\\', '%25%27']) {
      const res = await providers.en.get(`/v1/fleet/list?q=${encodeURIComponent(q)}`);
      expect(res.statusCode, q).toBe(200);
    }
  });
});

describe('alert calls (docs/alerts.md)', () => {
  const LIST_CASES: [string, string, MessageKey, Record<string, number>?][] = [
    ['limit=0', 'limit', 'validation.min_one'],
    ['limit=abc', 'limit', 'validation.number'],
    ['limit=2.5', 'limit', 'validation.integer'],
    ['limit=201', 'limit', 'validation.max', { max: 200 }],
    ['state=burning', 'state', 'validation.select'],
    ['category=fire', 'category', 'validation.select'],
    ['customer_id=customer-a', 'customer_id', 'validation.invalid'],
    ['site_id=site-1', 'site_id', 'validation.invalid'],
    ['building_id=12', 'building_id', 'validation.invalid'],
    ['zone_id=zone-1', 'zone_id', 'validation.invalid'],
    ['from=2026-02-30', 'from', 'validation.date'],
    ['to=01/03/2026', 'to', 'validation.date'],
    ['from=2026-05-02&to=2026-05-01', 'to', 'validation.end_after_start'],
    ['cursor=bm9wZQ', 'cursor', 'validation.invalid'],
    [`cursor=${'x'.repeat(201)}`, 'cursor', 'validation.too_long', { max: 200 }],
  ];
  it.each(LIST_CASES)('the alert list refuses %s with a message on %s', async (query, path, key, params) => {
    for (const language of LANGUAGES) {
      const before = await rowCounts();
      const res = await providers[language].get(`/v1/alerts/list?${query}`);
      expect(expectCatalogueError(res, language, 400).details, query).toEqual([
        { path, message: translate(key, language, params) },
      ]);
      expect(await rowCounts()).toEqual(before);
    }
  });

  it.each(['customer_id', 'site_id', 'building_id', 'zone_id'])(
    'the alert list answers a provider 404 for an unknown %s',
    async (filter) => {
      for (const language of LANGUAGES) {
        const res = await providers[language].get(`/v1/alerts/list?${filter}=${GHOST}`);
        expect(expectCatalogueError(res, language, 404).code).toBe('errors.not_found');
      }
    },
  );

  it('a category setting of an unknown category is refused, and nothing is written', async () => {
    for (const language of LANGUAGES) {
      const before = await rowCounts();
      const res = await providers[language].put('/v1/alerts/settings/fire/update', { email: true });
      expect(expectCatalogueError(res, language, 400).details).toEqual([
        { path: 'category', message: translate('validation.select', language) },
      ]);
      expect(await rowCounts()).toEqual(before);
    }
  });

  it.each([
    [
      'a blank English subject',
      { subject: { en: '   ', fr: 'Maintenance' } },
      'subject.en',
      'validation.required',
    ],
    ['a missing French subject', { subject: { en: 'Maintenance' } }, 'subject.fr', 'validation.required'],
    [
      'a 201-character subject',
      { subject: { en: 'x'.repeat(201), fr: 'x' } },
      'subject.en',
      'validation.too_long',
    ],
  ] as const)(
    'a category setting with %s is refused, and nothing is written',
    async (_what, body, path, key) => {
      for (const language of LANGUAGES) {
        const before = await rowCounts();
        const res = await providers[language].put('/v1/alerts/settings/maintenance/update', body);
        expect(expectCatalogueError(res, language, 400).details).toEqual([
          { path, message: translate(key, language, { max: 200 }) },
        ]);
        expect(await rowCounts()).toEqual(before);
      }
    },
  );

  it.each(['silence', 'unsilence', 'resolve'])(
    'the %s call refuses a body that is not an object, and malformed JSON, and changes nothing',
    async (transition) => {
      for (const language of LANGUAGES) {
        const before = await rowCounts();
        const [alert] = await t.db.select().from(alerts);
        const url = `/v1/alerts/${ids.alert}/${transition}`;
        const array = await providers[language].post(url, [{}]);
        expect(expectCatalogueError(array, language, 400).details).toEqual([
          { path: '', message: translate('validation.invalid', language) },
        ]);
        const malformed = await providers[language].request('POST', url, '{"x": ', {
          'content-type': 'application/json',
        });
        expect(expectCatalogueError(malformed, language, 400).code).toBe('errors.validation');
        expect(await rowCounts()).toEqual(before);
        expect((await t.db.select().from(alerts))[0]).toEqual(alert);
      }
    },
  );
});

describe('the firmware upload form (docs/firmware.md "Catalogue")', () => {
  const upload = (language: Language, payload: unknown, headers: Record<string, string>) =>
    providers[language].request('POST', '/v1/firmware/images', payload, headers);

  it.each(LANGUAGES)(
    'asks for the file of a form that has none, or of a body that is no form (%s)',
    async (language) => {
      const before = await rowCounts();
      const fileRequired = [{ path: 'file', message: translate('validation.required', language) }];
      const json = await upload(language, { version: '1.0.0' }, {});
      expect(expectCatalogueError(json, language, 400).details).toEqual(fileRequired);
      const noBoundary = await upload(language, 'x', { 'content-type': 'multipart/form-data' });
      expect(expectCatalogueError(noBoundary, language, 400).details).toEqual(fileRequired);
      const boundary = 'fieldsonly';
      const fieldsOnly = await upload(
        language,
        `--${boundary}\r\nContent-Disposition: form-data; name="version"\r\n\r\n1.0.0\r\n--${boundary}--\r\n`,
        { 'content-type': `multipart/form-data; boundary=${boundary}` },
      );
      expect(expectCatalogueError(fieldsOnly, language, 400).details).toEqual(fileRequired);
      expect(await rowCounts()).toEqual(before);
    },
  );

  it.each(LANGUAGES)('names each bad field of the form, and stores nothing (%s)', async (language) => {
    const before = await rowCounts();
    const { payload, headers } = firmwareForm(
      {
        version: 'v2',
        models: ['one_inch_v1', 'three_inches'],
        released_to: 'everyone',
        notes_en: 'x'.repeat(4001),
      },
      Buffer.alloc(64, 1),
      'flowbox-one_inch_v1-2.0.0.bin',
    );
    const body = expectCatalogueError(await upload(language, payload, headers), language, 400);
    expect(body.details?.map((d) => d.path).sort()).toEqual([
      'models.1',
      'notes_en',
      'released_to.0',
      'version',
    ]);
    expect(body.details).toContainEqual({
      path: 'version',
      message: translate('validation.firmware_version', language),
    });
    expect(await rowCounts()).toEqual(before);
  });

  it.each(['model=three_inches', 'status=gone'])('the catalogue list refuses %s', async (query) => {
    const res = await providers.en.get(`/v1/firmware/images?${query}`);
    expect(expectCatalogueError(res, 'en', 400).details).toEqual([
      { path: query.split('=')[0], message: translate('validation.select', 'en') },
    ]);
  });
});
