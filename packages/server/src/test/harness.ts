import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { eq } from 'drizzle-orm';
import { ROLES, type Permission, type Role } from '@flowbox/shared';
import pg from 'pg';
import { buildApp, type AppOptions, type Services } from '../app.ts';
import { subscriptionRenewalsJob } from '../billing/subscription-renewals.job.ts';
import { hashPassword } from '../auth/passwords.ts';
import { migrationsFolder, openDatabase, type Database, type Db } from '../db/client.ts';
import { migrationsDigest } from '../db/pglite-template.ts';
import { ConnectionGuard } from '../db/connection-guard.ts';
import { customers, sites, users, zones } from '../db/schema.ts';
import type { App } from '../http/types.ts';
import { startJobs } from '../jobs/registry.ts';
import { insertUser } from '../users/users.repo.ts';

/**
 * Integration tests run the real app against a real database: in-memory PGlite by default, or
 * a throw-away PostgreSQL database per test file when FLOWBOX_TEST_PG names a server
 * (e.g. postgres://postgres@127.0.0.1:5432/postgres). `npm test` runs the suite both ways.
 */
export async function openTestDatabase(
  options: { poolSize?: number } = {},
): Promise<TestDatabase & { guard: ConnectionGuard }> {
  const database = await openUnguardedTestDatabase(options.poolSize);
  // Every test database fails its test, at close, on a connection taken while a transaction is
  // held (docs/decisions.md "One connection per operation").
  const guard = new ConnectionGuard(database.db);
  return {
    ...database,
    guard,
    close: async () => {
      await database.close();
      guard.assertNone();
    },
  };
}

/** A test database; `url` names it on PostgreSQL, for a second instance to open its own pool on. */
export type TestDatabase = Database & { url?: string };

/**
 * The same throw-away database without the connection guard: for benchmarks, which must measure
 * what production runs (the guard's AsyncLocalStorage costs a promise hook per await).
 */
export async function openUnguardedTestDatabase(poolSize?: number): Promise<TestDatabase> {
  const adminUrl = process.env.FLOWBOX_TEST_PG;
  if (!adminUrl) return openDatabase({ dataDir: null });
  const name = `fbx_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await copyMigratedTemplate(adminUrl, name);
  const url = databaseUrl(adminUrl, name);
  // The drop below ends connections still closing: expected, not a failure.
  const database = await openDatabase({
    databaseUrl: url,
    dataDir: null,
    ...(poolSize ? { poolSize } : {}),
    onConnectionError: () => undefined,
  });
  return {
    ...database,
    url,
    close: async () => {
      await database.close();
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

const databaseUrl = (adminUrl: string, name: string) => {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/**
 * A migrated template's name, and how its copies are made: PostgreSQL 15's default copies it block by
 * block through the write-ahead log, FILE_COPY copies its files (older servers only copy files).
 */
type Template = { name: string; strategy: string };

/** This process's migrated template, once made or found (migratedTemplate). */
let templateOfProcess: Promise<Template> | undefined;

/**
 * A migrated database the throw-away ones are copied from: a copy takes a fraction of a second where
 * running the 30-odd migrations took one to two, for each of the hundreds of files' databases (the
 * suites' PGlite databases start from a migrated copy too: db/pglite-template.ts). Named by a digest
 * of the migrations, so a changed migration makes a new one (and drops the older ones); made under
 * another name and renamed, so a concurrent worker never copies a half-migrated one. The migrator
 * still runs on each copy and finds nothing to apply.
 */
function migratedTemplate(adminUrl: string): Promise<Template> {
  templateOfProcess ??= makeMigratedTemplate(adminUrl).catch((error: unknown) => {
    templateOfProcess = undefined;
    throw error;
  });
  return templateOfProcess;
}

async function copyMigratedTemplate(adminUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    for (let attempt = 1; ; attempt++) {
      const template = await migratedTemplate(adminUrl);
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template.name}${template.strategy}`);
        return;
      } catch (error) {
        // Dropped by a run of other migrations since this process found it (invalid_catalog_name):
        // made again.
        if ((error as { code?: string }).code !== '3D000' || attempt > 1) throw error;
        templateOfProcess = undefined;
      }
    }
  } finally {
    await admin.end();
  }
}

async function makeMigratedTemplate(adminUrl: string): Promise<Template> {
  const template = `fbx_template_${migrationsDigest(migrationsFolder)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const version = await admin.query<{ v: string }>('SELECT current_setting($1) AS v', [
      'server_version_num',
    ]);
    const made = {
      name: template,
      strategy: Number(version.rows[0]!.v) >= 150_000 ? ' STRATEGY FILE_COPY' : '',
    };
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
    if (found.rowCount) return made;
    const partial = `fbx_partial_${process.pid}_${randomBytes(4).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${partial}`);
    try {
      const database = await openDatabase({ databaseUrl: databaseUrl(adminUrl, partial), dataDir: null });
      await database.close();
      await admin.query(`ALTER DATABASE ${partial} RENAME TO ${template}`);
    } catch (error) {
      await admin.query(`DROP DATABASE IF EXISTS ${partial} WITH (FORCE)`);
      // Another worker published the same template first: theirs serves.
      const now = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
      if (!now.rowCount) throw error;
    }
    const older = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE 'fbx\\_template\\_%' AND datname <> $1`,
      [template],
    );
    for (const { datname } of older.rows)
      await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    return made;
  } finally {
    await admin.end();
  }
}

/** Every port `freePort` answered in this process. */
const handedOut = new Set<number>();

/**
 * A TCP port nobody listens on right now, for servers started by tests, and never one this process
 * was already given: the system may answer the port it just released again, and two ports asked
 * in a row (PORT, then MQTT_PORT, then METRICS_PORT) came out equal once in CI.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}

/** A clock the test moves by hand (STYLE.md: inject the clock). */
export class TestClock {
  private offsetMs = 0;
  now = (): Date => new Date(Date.now() + this.offsetMs);
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export const PASSWORD = 'correct-horse-1';

export type TestApp = {
  app: App;
  db: Db;
  services: Services;
  clock: TestClock;
  /** The database's URL on PostgreSQL (undefined on PGlite). */
  databaseUrl: string | undefined;
  close: () => Promise<void>;
};

/** The app settings of tests and benchmarks: no SMTP, no web build, a fixed signing key. */
export function testConfig(overrides: Partial<AppOptions['config']> = {}): AppOptions['config'] {
  return {
    publicUrl: 'http://flowbox.test',
    accessTokenTtl: 900,
    refreshTokenTtl: 30 * 86400,
    jwtSecret: 'test-secret-that-is-long-enough-for-hs256-0123456789',
    // A fixed pair, made for the tests only (push/push.test.ts checks the JWT it signs).
    vapid: {
      publicKey: 'BM1-OlxqdJUwO3MizzFeGU6bnInDm-5Y-F6nwu_9BUUQlSYpyUW0rGjtFhpwaGUmMDrBCdEgSzhNMGFWxLTM1vE',
      privateKey: '9FuwosbjyqjxfPOuzHVQLrQzfYUjofmKQeI6sWXkbEA',
      subject: 'mailto:ops@flowbox.test',
    },
    // A push service on loopback stands in for the vendors' (docs/push.md "Tests").
    pushTestEndpoints: true,
    // A receiver on loopback stands in for the customer's (docs/webhooks.md "Tests").
    webhookTestEndpoints: true,
    smtpUrl: undefined,
    smtpFrom: 'Flowbox Manager <no-reply@flowbox.test>',
    logLevel: 'silent',
    webDist: '/nonexistent',
    ...overrides,
  };
}

export async function createTestApp(
  overrides: Partial<AppOptions['config']> & { rateLimitPerMinute?: number } = {},
): Promise<TestApp> {
  const database = await openTestDatabase();
  const clock = new TestClock();
  const { rateLimitPerMinute, ...configOverrides } = overrides;
  const config = testConfig(configOverrides);
  const { app, services } = await buildApp({
    config,
    db: database.db,
    now: clock.now,
    logger: false,
    // Suites make thousands of requests from one address, which the production limit (counted
    // before authentication) would answer 429; the limit's own tests set theirs
    // (http/security-headers.test.ts, http/trust-proxy.test.ts).
    rateLimitPerMinute: rateLimitPerMinute ?? 1_000_000,
  });
  await app.ready();
  const stopJobs = startTestAppJobs(services);
  return {
    app,
    db: database.db,
    services,
    clock,
    databaseUrl: database.url,
    close: async () => {
      await stopJobs();
      await app.close();
      await database.close();
    },
  };
}

/**
 * A test app runs the renewals, hourly as on a server (so never within a test): its metrics show a
 * job. Tests run the other jobs' passes themselves, and device messaging's with it
 * (flowboxes/testing.ts); server.ts starts them all (jobs/registry.ts).
 */
function startTestAppJobs(services: Services): () => Promise<void> {
  return startJobs(services.jobs, [subscriptionRenewalsJob(services.subscriptions)]);
}

/**
 * A second instance of the app on the first one's database, as behind a load balancer: on
 * PostgreSQL it opens a pool of its own; PGlite lives in one process, so there it shares the first
 * one's. Close it before the first.
 */
export async function createSecondInstance(first: TestApp): Promise<TestApp> {
  const database = first.databaseUrl
    ? await openDatabase({
        databaseUrl: first.databaseUrl,
        dataDir: null,
        onConnectionError: () => undefined,
      })
    : undefined;
  const db = database?.db ?? first.db;
  const { app, services } = await buildApp({
    config: testConfig(),
    db,
    now: first.clock.now,
    logger: false,
    rateLimitPerMinute: 1_000_000,
  });
  await app.ready();
  const stopJobs = startTestAppJobs(services);
  return {
    app,
    db,
    services,
    clock: first.clock,
    databaseUrl: first.databaseUrl,
    close: async () => {
      await stopJobs();
      await app.close();
      await database?.close();
    },
  };
}

let passwordHash: Promise<string> | undefined;

export async function createUser(
  db: Db,
  fields: {
    email: string;
    role: Role;
    customerId?: string | null;
    siteIds?: string[];
    /** An end user's zones. */
    zoneIds?: string[];
    firstname?: string;
    lastname?: string;
  },
) {
  passwordHash ??= hashPassword(PASSWORD);
  return insertUser(
    db,
    {
      email: fields.email,
      username: fields.email,
      firstname: fields.firstname ?? 'Test',
      lastname: fields.lastname ?? fields.email.split('@')[0]!,
      role: fields.role,
      customerId: fields.customerId ?? null,
      passwordHash: await passwordHash,
    },
    fields.siteIds ?? [],
    fields.zoneIds ?? [],
  );
}

/** Two customers, each with two sites, a customer manager and a site manager of its first site. */
export async function createWorld(db: Db) {
  const [a, b] = await db
    .insert(customers)
    .values([{ name: 'Customer A' }, { name: 'Customer B' }])
    .returning();
  const [a1, a2, b1, b2] = await db
    .insert(sites)
    .values([
      { customerId: a!.id, name: 'A site 1' },
      { customerId: a!.id, name: 'A site 2' },
      { customerId: b!.id, name: 'B site 1' },
      { customerId: b!.id, name: 'B site 2' },
    ])
    .returning();
  const provider = await createUser(db, {
    email: 'provider@test.io',
    role: ROLES.flovea_manager,
    firstname: 'Pat',
    lastname: 'Provider',
  });
  const cmA = await createUser(db, {
    email: 'cm.a@test.io',
    role: ROLES.customer_manager,
    customerId: a!.id,
    firstname: 'Cara',
    lastname: 'Amanager',
  });
  const smA = await createUser(db, {
    email: 'sm.a@test.io',
    role: ROLES.site_manager,
    customerId: a!.id,
    siteIds: [a1!.id],
    firstname: 'Sam',
    lastname: 'Asite',
  });
  const cmB = await createUser(db, {
    email: 'cm.b@test.io',
    role: ROLES.customer_manager,
    customerId: b!.id,
    firstname: 'Cole',
    lastname: 'Bmanager',
  });
  const smB = await createUser(db, {
    email: 'sm.b@test.io',
    role: ROLES.site_manager,
    customerId: b!.id,
    siteIds: [b1!.id],
    firstname: 'Sue',
    lastname: 'Bsite',
  });
  return {
    customers: { a: a!, b: b! },
    sites: { a1: a1!, a2: a2!, b1: b1!, b2: b2! },
    users: { provider, cmA, smA, cmB, smB },
  };
}

export type World = Awaited<ReturnType<typeof createWorld>>;

/** A small client over `app.inject` that logs in once and sends the Bearer token. */
export class ApiClient {
  token: string | undefined;
  refreshToken: string | undefined;

  constructor(
    private readonly app: App,
    private readonly language?: 'en' | 'fr',
  ) {}

  async login(email: string, password = PASSWORD): Promise<this> {
    const res = await this.request('POST', '/v1/users/token', { email, password });
    if (res.statusCode !== 200) throw new Error(`login failed for ${email}: ${res.body}`);
    const body = res.json<{ access_token: string; refresh_token: string }>();
    this.token = body.access_token;
    this.refreshToken = body.refresh_token;
    return this;
  }

  request(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    return this.app.inject({
      method,
      url,
      ...(body !== undefined ? { payload: body as object } : {}),
      headers: {
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...(this.language ? { 'accept-language': this.language } : {}),
        ...headers,
      },
    });
  }

  get = (url: string) => this.request('GET', url);
  post = (url: string, body?: unknown) => this.request('POST', url, body);
  put = (url: string, body?: unknown) => this.request('PUT', url, body);
  patch = (url: string, body?: unknown) => this.request('PATCH', url, body);
  delete = (url: string, body?: unknown) => this.request('DELETE', url, body);
  /** PUT of one file as a multipart form, as the image uploads take it. */
  upload = (url: string, bytes: Buffer, fileName?: string, contentType?: string) => {
    const { payload, headers } = multipartFile(bytes, fileName, contentType);
    return this.request('PUT', url, payload, headers);
  };
}

export async function loginAs(app: App, email: string, language?: 'en' | 'fr'): Promise<ApiClient> {
  return new ApiClient(app, language).login(email);
}

/** A building body the API accepts: every mandatory field (docs/hierarchy.md), nothing else. */
export function buildingBody(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Main building',
    type: 'office',
    address: '1 rue de la Paix',
    city: 'Paris',
    zipCode: '75002',
    country: 'FR',
    timezone: 'Europe/Paris',
    volume_unit: 'm3',
    currency: 'EUR',
    first_day_of_week: 'monday',
    ...overrides,
  };
}

/** A zone body the API accepts: every mandatory field, nothing else. */
export function zoneBody(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Ground floor toilets',
    profile: 'sanitary',
    flowbox_model: 'one_inch_v1',
    water_temperature: 'cold',
    ...overrides,
  };
}

/** A pricing plan body the API accepts, offered where the test buildings are (FR, EUR). */
export function planBody(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Plan',
    regions: ['FR'],
    billing_type: 'monthly',
    acquisition_type: 'lifetime_fee',
    currency: 'EUR',
    volume_unit: 'm3',
    from_date: '2025-01-01',
    ranges: [{ volume_start: '0', volume_end: null, price_per_unit: '2.5' }],
    ...overrides,
  };
}

/** A scheduled closing body the API accepts: 22:00–06:00 every night of 2026. */
export function scheduleBody(overrides: Record<string, unknown> = {}) {
  return {
    label: 'Nightly',
    date_start: '2026-01-01',
    date_end: '2026-12-31',
    closing_time: '22:00',
    opening_time: '06:00',
    recurring: true,
    frequency: 'daily',
    interval: 1,
    ...overrides,
  };
}

/** A multipart/form-data request body holding one file part named `file`. */
export function multipartFile(bytes: Buffer, fileName = 'image.png', contentType = 'image/png') {
  const boundary = `----flowbox${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
      `Content-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, bytes, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** A real 1×1 PNG image. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** The app, the two-customer world, and signed-in clients for the provider and customer A's managers. */
export async function createWorldApp() {
  const t = await createTestApp();
  const w = await createWorld(t.db);
  const [provider, cmA, smA] = await Promise.all([
    loginAs(t.app, 'provider@test.io'),
    loginAs(t.app, 'cm.a@test.io'),
    loginAs(t.app, 'sm.a@test.io'),
  ]);
  return { t, w, provider, cmA, smA };
}

/** A site manager of customer A's site a1 whose one permission is denied, signed in. */
export async function siteManagerWithout(t: TestApp, w: World, email: string, permission: Permission) {
  const user = await createUser(t.db, {
    email,
    role: ROLES.site_manager,
    customerId: w.customers.a.id,
    siteIds: [w.sites.a1.id],
  });
  await t.db
    .update(users)
    .set({ permissions: { [permission]: 'denied' } })
    .where(eq(users.id, user.id));
  return loginAs(t.app, email);
}

/**
 * A building with one zone on a site of `customerId`, made through the API by `client` (a manager of
 * it); `premium` sets the zone's service level, which premium-only alerts need (spec §6). The zone's id.
 */
export async function createZone(
  t: TestApp,
  client: ApiClient,
  place: { customerId: string; siteId: string; name: string; premium?: boolean },
): Promise<string> {
  const site = `/v1/customers/${place.customerId}/sites/${place.siteId}`;
  const building = (await client.post(`${site}/buildings/create`, buildingBody())).json<{ id: string }>().id;
  const zoneId = (
    await client.post(`${site}/buildings/${building}/zones/create`, zoneBody({ name: place.name }))
  ).json<{ id: string }>().id;
  if (place.premium) await t.db.update(zones).set({ serviceLevel: 'premium' }).where(eq(zones.id, zoneId));
  return zoneId;
}
