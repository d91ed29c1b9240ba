// Benchmark of the fleet list (issue #18, docs/fleet.md): 100,000 flowboxes of 100 customers
// (1,000 sites, 5,000 buildings, 25,000 zones), with a history of resolved alerts, ~1,500 alerts not
// resolved and 100 locked zones, loaded by bulk INSERT … SELECT generate_series. Then p50/p99 over
// real HTTP of the list's first pages (which count the total), next pages and deep pages (row
// ~99,000, by a cursor of that position) for each sort, the filters, the serial search, a customer
// manager's scope and the CSV export. Runs on PostgreSQL (FLOWBOX_TEST_PG, a throw-away database)
// then on embedded PGlite. Knobs: BENCH_FLOWBOXES (100000), BENCH_CALLS (100 a case),
// BENCH_DATABASES (postgres,pglite).
import { type AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { ROLES } from '@flowbox/shared';
import { sql } from 'drizzle-orm';
import { buildApp } from '../packages/server/src/app.ts';
import { encodeCursor } from '../packages/server/src/db/cursor.ts';
import { fleetOpenAlertCountsJob } from '../packages/server/src/fleet/fleet-open-alert-counts.job.ts';
import { createUser, openTestDatabase, PASSWORD, testConfig } from '../packages/server/src/test/harness.ts';

const FLOWBOXES = Number(process.env.BENCH_FLOWBOXES ?? 100_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 100);
const DATABASES = (process.env.BENCH_DATABASES ?? 'postgres,pglite').split(',');
const TARGET_P99_MS = 200;
const PER_ZONE = 4;
const ZONES = Math.ceil(FLOWBOXES / PER_ZONE);
const BUILDINGS = Math.ceil(ZONES / 5);
const SITES = Math.ceil(BUILDINGS / 5);
const CUSTOMERS = Math.ceil(SITES / 10);

type Figures = { p50: number; p99: number; calls: number; errors: number };

async function measure(url: () => string, base: string, auth: Record<string, string>, calls = CALLS) {
  const latencies: number[] = [];
  let errors = 0;
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    const res = await fetch(`${base}${url()}`, { headers: auth });
    await res.arrayBuffer();
    latencies.push(performance.now() - t0);
    if (!res.ok) errors++;
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), calls, errors } satisfies Figures;
}

const cursor = (sort: string, key: string | number, serial: string) => encodeCursor({ sort, key, serial });

async function bench(label: string): Promise<boolean> {
  const database = await openTestDatabase();
  const { db } = database;
  const select = async <T>(query: ReturnType<typeof sql>) =>
    ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const started = performance.now();
  await db.execute(
    sql`INSERT INTO customers (name) SELECT 'Customer ' || lpad(c::text, 3, '0') FROM generate_series(1, ${CUSTOMERS}) c`,
  );
  await db.execute(sql`
    INSERT INTO sites (customer_id, name)
      SELECT c.id, 'Site ' || s FROM customers c CROSS JOIN generate_series(1, 10) s`);
  await db.execute(sql`
    INSERT INTO buildings (site_id, name, type, address, city, zip_code, country, timezone, volume_unit,
        currency, first_day_of_week, weekend)
      SELECT s.id, 'Building ' || b, 'office', '1 rue', 'Paris', '75001', 'FR', 'Europe/Paris',
        'm3', 'EUR', 'monday', '["saturday","sunday"]'::jsonb
      FROM sites s CROSS JOIN generate_series(1, 5) b`);
  await db.execute(sql`
    INSERT INTO zones (building_id, name, profile, flowbox_model, water_temperature)
      SELECT b.id, 'Zone ' || z, 'office', 'one_inch_v1', 'cold'
      FROM buildings b CROSS JOIN generate_series(1, 5) z`);
  // Four flowboxes a zone, numbered in a random order of zones so that a serial's neighbours are
  // of other customers: 5% offline, 2% closed, four firmware versions, three models, readings over
  // the last hour.
  await db.execute(sql`
    INSERT INTO flowboxes (serial, zone_id, pairing_state, model, connected, connection_changed_at,
        last_seen_at, last_reading_at, valve, firmware_version)
      SELECT 'FB' || lpad(n::text, 6, '0'), zone_id, 'ready',
        (ARRAY['half_inch_v1','one_inch_v1','two_inches_v1'])[1 + n % 3],
        n % 20 <> 0, now() - (n % 86400) * interval '1 second', now() - (n % 600) * interval '1 second',
        CASE WHEN n % 997 = 0 THEN NULL ELSE now() - (n * 7919 % 3600) * interval '1 second' END,
        CASE WHEN n % 50 = 0 THEN 'closed' ELSE 'opened' END,
        (ARRAY['1.0.0','1.1.0','1.2.0','2.0.0'])[1 + (n / 7) % 4]
      FROM (
        SELECT z.id AS zone_id, row_number() OVER (ORDER BY md5(z.id::text || k)) AS n
        FROM zones z CROSS JOIN generate_series(1, ${PER_ZONE}) k
      ) numbered
      WHERE n <= ${FLOWBOXES}`);
  await db.execute(sql`
    INSERT INTO zone_automation (zone_id, automatic_closing_enabled, locked_at, locked_by)
      SELECT id, true, now(), 'volume' FROM zones ORDER BY md5(id::text) LIMIT 100`);
  // Alerts: 50 per customer resolved a day (a year's history for the first 2,000 zones), one not
  // resolved per 97th flowbox, a leak in 300 zones (naming no flowbox).
  await db.execute(sql`
    INSERT INTO alerts (category, cause, state, customer_id, site_id, building_id, zone_id, flowbox_id,
        flowbox_serial, opened_at, last_seen_at, resolved_at)
      SELECT 'flowbox_communication', 'comm:' || f.id || ':' || k, 'resolved', s.customer_id, s.id, b.id,
        z.id, f.id, f.serial, now() - k * interval '1 hour', now() - k * interval '1 hour', now()
      FROM (SELECT * FROM flowboxes ORDER BY serial LIMIT 2000) f JOIN zones z ON z.id = f.zone_id
      JOIN buildings b ON b.id = z.building_id JOIN sites s ON s.id = b.site_id
      CROSS JOIN generate_series(1, 25) k`);
  await db.execute(sql`
    INSERT INTO alerts (category, cause, state, customer_id, site_id, building_id, zone_id, flowbox_id,
        flowbox_serial, opened_at, last_seen_at)
      SELECT 'flowbox_dysfunction', 'dys:' || f.id, 'open', s.customer_id, s.id, b.id, z.id, f.id, f.serial,
        now(), now()
      FROM flowboxes f JOIN zones z ON z.id = f.zone_id
      JOIN buildings b ON b.id = z.building_id JOIN sites s ON s.id = b.site_id
      WHERE substr(f.serial, 3)::int % 97 = 0`);
  await db.execute(sql`
    INSERT INTO alerts (category, cause, state, customer_id, site_id, building_id, zone_id,
        opened_at, last_seen_at)
      SELECT 'leakage_detection', 'leak', 'open', s.customer_id, s.id, b.id, z.id, now(), now()
      FROM (SELECT * FROM zones ORDER BY md5(id::text || 'leak') LIMIT 300) z
      JOIN buildings b ON b.id = z.building_id JOIN sites s ON s.id = b.site_id`);
  await db.execute(sql`ANALYZE`);
  const [counts] = await select<{ flowboxes: number; alerts: number; active: number }>(
    sql`SELECT (SELECT count(*) FROM flowboxes)::int AS flowboxes, (SELECT count(*) FROM alerts)::int AS alerts,
      (SELECT count(*) FROM alerts WHERE state <> 'resolved')::int AS active`,
  );
  console.log(
    `\n${label}: ${counts!.flowboxes.toLocaleString('en')} flowboxes, ${counts!.alerts.toLocaleString('en')} alerts ` +
      `(${counts!.active.toLocaleString('en')} not resolved), loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const { app } = await buildApp({
    config: testConfig({ refreshTokenTtl: 86400 }),
    db,
    logger: false,
    rateLimitPerMinute: 1_000_000_000,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const [customer] = await select<{ id: string }>(sql`SELECT id FROM customers ORDER BY name LIMIT 1`);
  await createUser(db, { email: 'bench@bench.io', role: ROLES.flovea_manager });
  await createUser(db, { email: 'cm@bench.io', role: ROLES.customer_manager, customerId: customer!.id });
  const [site] = await select<{ id: string }>(
    sql`SELECT id FROM sites WHERE customer_id = ${customer!.id} ORDER BY name LIMIT 1`,
  );
  await createUser(db, {
    email: 'sm@bench.io',
    role: ROLES.site_manager,
    customerId: customer!.id,
    siteIds: [site!.id],
  });
  const signIn = async (email: string) => {
    const token = await fetch(`${base}/v1/users/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    }).then((r) => r.json() as Promise<{ access_token: string }>);
    return { authorization: `Bearer ${token.access_token}` };
  };
  const auth = await signIn('bench@bench.io');
  const cmAuth = await signIn('cm@bench.io');
  const smAuth = await signIn('sm@bench.io');

  // Deep positions: the row ~99% down each order, read from the tables as the list orders them.
  const deep = Math.floor(counts!.flowboxes * 0.99);
  const [bySerial] = await select<{ serial: string }>(
    sql`SELECT serial FROM flowboxes ORDER BY serial OFFSET ${deep} LIMIT 1`,
  );
  const [byReading] = await select<{ at: string; serial: string }>(sql`
    SELECT to_char(coalesce(last_reading_minute, '1970-01-01T00:00:00Z'::timestamptz) AT TIME ZONE 'UTC',
        'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at, serial
    FROM flowboxes ORDER BY coalesce(last_reading_minute, '1970-01-01T00:00:00Z'::timestamptz) DESC, serial DESC
    OFFSET ${deep} LIMIT 1`);
  const [byCustomer] = await select<{ name: string; serial: string }>(sql`
    SELECT c.name, f.serial FROM flowboxes f JOIN zones z ON z.id = f.zone_id
    JOIN buildings b ON b.id = z.building_id JOIN sites s ON s.id = b.site_id
    JOIN customers c ON c.id = s.customer_id ORDER BY c.name, f.serial OFFSET ${deep} LIMIT 1`);
  const [byFirmware] = await select<{ v: string; serial: string }>(sql`
    SELECT coalesce(firmware_version, '') AS v, serial FROM flowboxes
    ORDER BY coalesce(firmware_version, '') DESC, serial DESC OFFSET ${deep} LIMIT 1`);
  const second = async (query: string) =>
    (
      (await (await fetch(`${base}/v1/fleet/list?${query}`, { headers: auth })).json()) as {
        next_cursor: string;
      }
    ).next_cursor;

  const cases: [string, () => string, Record<string, string>?][] = [];
  const list = (query: string) => () => `/v1/fleet/list?${query}`;
  for (const [name, query, deepCursor] of [
    ['serial', 'sort=serial', cursor('serial', bySerial!.serial, bySerial!.serial)],
    [
      'last reading, newest first',
      'sort=last_reading&dir=desc',
      cursor('last_reading', byReading!.at, byReading!.serial),
    ],
    ['customer', 'sort=customer', cursor('customer', byCustomer!.name, byCustomer!.serial)],
    ['open alerts, most first', 'sort=open_alerts&dir=desc', cursor('open_alerts', 0, 'FB001000')],
    [
      'firmware, newest first',
      'sort=firmware&dir=desc',
      cursor('firmware', byFirmware!.v, byFirmware!.serial),
    ],
  ] as const) {
    const next = await second(`${query}&limit=50`);
    cases.push([`by ${name}: first page (+ total)`, list(`${query}&limit=50`)]);
    cases.push([`by ${name}: next page`, list(`${query}&limit=50&cursor=${next}`)]);
    cases.push([
      `by ${name}: deep page (~row ${deep.toLocaleString('en')})`,
      list(`${query}&limit=50&cursor=${deepCursor}`),
    ]);
  }
  for (const [name, query] of [
    ['offline', 'offline=true'],
    ['offline, by last reading', 'offline=true&sort=last_reading&dir=desc'],
    ['closed valve', 'closed=true'],
    ['zone locked', 'locked=true'],
    ['leaking', 'leaking=true'],
    ['leaking, by open alerts', 'leaking=true&sort=open_alerts&dir=desc'],
    ['firmware 1.2.0', 'firmware_version=1.2.0'],
    ['model + offline', 'model=two_inches_v1&offline=true'],
    ['no match (firmware 9.9.9)', 'firmware_version=9.9.9'],
    ['serial prefix "fb0123"', 'q=fb0123'],
    ['serial prefix "FB09", by customer', 'q=FB09&sort=customer'],
  ] as const) {
    cases.push([`${name}: first page (+ total)`, list(`${query}&limit=50`)]);
    const next = await second(`${query}&limit=50`);
    if (next) cases.push([`${name}: next page`, list(`${query}&limit=50&cursor=${next}`)]);
  }
  cases.push(['customer manager (1,000): first page', list('limit=50'), cmAuth]);
  cases.push([
    'customer manager: offline, by open alerts',
    list('offline=true&sort=open_alerts&dir=desc'),
    cmAuth,
  ]);
  cases.push(['site manager (100): first page', list('limit=50'), smAuth]);
  cases.push(['site manager: not locked, not leaking', list('locked=false&leaking=false&limit=50'), smAuth]);
  cases.push(['provider: not locked, not leaking', list('locked=false&leaking=false&limit=50')]);
  cases.push(['page of 200, by serial', list('limit=200')]);

  const rows: [string, Figures][] = [];
  let worst = 0;
  for (const [name, url, as] of cases) {
    await measure(url, base, as ?? auth, 5);
    const f = await measure(url, base, as ?? auth);
    worst = Math.max(worst, f.p99);
    rows.push([name, f]);
  }
  rows.push([
    'CSV export, offline (~5,000 lines)',
    await measure(() => '/v1/fleet/export.csv?offline=true', base, auth, 5),
  ]);
  rows.push(['CSV export, all (100,000 lines)', await measure(() => '/v1/fleet/export.csv', base, auth, 1)]);

  // A mass outage: every flowbox of every customer but the customer manager's loses its broker
  // connection and gets an open alert (~99,000 of them). The customer manager's list must not pay
  // for the other customers' alerts; the provider's open-alerts sort reads each flowbox's count,
  // once the counts job has added the outage's changes (migration 0020).
  const raised = performance.now();
  await db.execute(sql`
    INSERT INTO alerts (category, cause, state, customer_id, site_id, building_id, zone_id, flowbox_id,
        flowbox_serial, opened_at, last_seen_at)
      SELECT 'flowbox_communication', 'comm:' || f.id, 'open', s.customer_id, s.id, b.id, z.id, f.id,
        f.serial, now(), now()
      FROM flowboxes f JOIN zones z ON z.id = f.zone_id
      JOIN buildings b ON b.id = z.building_id JOIN sites s ON s.id = b.site_id
      WHERE s.customer_id <> ${customer!.id}`);
  const raisedMs = performance.now() - raised;
  const [struck] = await select<{ id: string }>(sql`SELECT id FROM customers ORDER BY name OFFSET 1 LIMIT 1`);
  const folding = performance.now();
  await fleetOpenAlertCountsJob(db).pass();
  console.log(
    `  outage: ~99,000 alerts raised in one statement in ${(raisedMs / 1000).toFixed(1)} s; ` +
      `the counts job added their changes in ${((performance.now() - folding) / 1000).toFixed(1)} s`,
  );
  await db.execute(sql`ANALYZE`);
  const outage: [string, () => string, Record<string, string>][] = [
    [
      'outage elsewhere: customer manager, by open alerts',
      list('sort=open_alerts&dir=desc&limit=50'),
      cmAuth,
    ],
    ['outage elsewhere: customer manager, leaking', list('leaking=true&limit=50'), cmAuth],
    ['outage elsewhere: site manager, by open alerts', list('sort=open_alerts&dir=desc&limit=50'), smAuth],
    ['outage: provider, by serial', list('limit=50'), auth],
    ['outage: provider, by open alerts', list('sort=open_alerts&dir=desc&limit=50'), auth],
    [
      'outage: provider, offline by open alerts',
      list('sort=open_alerts&dir=desc&offline=true&limit=50'),
      auth,
    ],
    [
      'outage: provider, one customer by open alerts',
      list(`sort=open_alerts&dir=desc&customer_id=${struck!.id}&limit=50`),
      auth,
    ],
  ];
  for (const [name, url, as] of outage) {
    await measure(url, base, as, 5);
    const f = await measure(url, base, as, Math.min(CALLS, 50));
    worst = Math.max(worst, f.p99);
    rows.push([name, f]);
  }
  console.log(`  (load average now ${loadavg()[0]!.toFixed(1)}; ${CALLS} sequential calls a case)`);
  for (const [name, f] of rows) {
    console.log(
      `  ${name.padEnd(50)} p50 ${f.p50.toFixed(1).padStart(7)} ms   p99 ${f.p99.toFixed(1).padStart(7)} ms   (${f.calls} calls, ${f.errors} errors)`,
    );
  }
  console.log(`  worst list p99: ${worst.toFixed(1)} ms (target < ${TARGET_P99_MS} ms)`);
  await app.close();
  await database.close();
  return rows.every(([, f]) => f.errors === 0);
}

const pgUrl = process.env.FLOWBOX_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';
console.log(
  `Fleet list benchmark: ${FLOWBOXES.toLocaleString('en')} flowboxes, Node ${process.version}, load average ${loadavg()[0]!.toFixed(1)}`,
);
let ok = true;
if (DATABASES.includes('postgres')) {
  process.env.FLOWBOX_TEST_PG = pgUrl;
  ok =
    (await bench(`PostgreSQL (${new URL(pgUrl).host})`).catch((error: unknown) => {
      console.log(`\nPostgreSQL: not measured (${String(error)})`);
      return true;
    })) && ok;
}
if (DATABASES.includes('pglite')) {
  delete process.env.FLOWBOX_TEST_PG;
  ok = (await bench('Embedded PGlite')) && ok;
}
process.exit(ok ? 0 : 1);
