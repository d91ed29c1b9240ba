// Benchmark of the consumption graphs (issue #6): one year of per-minute readings for 1,000 zones,
// then p50/p99 of the day/week/month/year graph calls over real HTTP for random zones, and of a
// building, site and customer graph, the customer's export and the dashboard. The year of readings is generated as what it rolls up to —
// hourly and daily rows per zone and flowbox, written by bulk INSERT … SELECT generate_series —
// not as 525 million raw readings: the graphs never read raw readings (DESIGN.md §4), so their size
// does not change these figures. Half the zones have a subscription, so cost is computed too.
// Runs on embedded PGlite, then on PostgreSQL (FLOWBOX_TEST_PG, a throw-away database). Prints
// figures and exits. Knobs: BENCH_ZONES (1000), BENCH_CALLS (200 per window), BENCH_HOURLY_DAYS
// (days of hourly rows: 365 on PostgreSQL, 7 on PGlite; the day window reads only the last two).
import { type AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import { buildApp } from '../packages/server/src/app.ts';
import { createUser, openTestDatabase, PASSWORD, testConfig } from '../packages/server/src/test/harness.ts';

const ZONES = Number(process.env.BENCH_ZONES ?? 1000);
const CALLS = Number(process.env.BENCH_CALLS ?? 200);
/** Days of hourly rows: a year on PostgreSQL; a week on PGlite, whose bulk inserts run ~30× slower. */
const HOURLY_DAYS = (driver: 'pglite' | 'postgres') =>
  Number(process.env.BENCH_HOURLY_DAYS ?? (driver === 'postgres' ? 365 : 7));
const ZONES_PER_BUILDING = 10;
const BUILDINGS_PER_SITE = 10;
/** Seeded choice of zones, so runs are comparable. */
let seed = 42;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;

type Figures = { p50: number; p99: number; calls: number; errors: number };

async function measure(urls: () => string, base: string, auth: Record<string, string>, calls = CALLS) {
  const latencies: number[] = [];
  let errors = 0;
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    const res = await fetch(`${base}${urls()}`, { headers: auth });
    await res.arrayBuffer();
    latencies.push(performance.now() - t0);
    if (!res.ok) errors++;
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), calls, errors } satisfies Figures;
}

async function bench(label: string): Promise<void> {
  const database = await openTestDatabase();
  const { db } = database;
  const { app } = await buildApp({
    config: testConfig({ refreshTokenTtl: 86400 }),
    db,
    logger: false,
    rateLimitPerMinute: 1_000_000_000,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  await createUser(db, { email: 'bench@bench.io', role: 1 });
  const token = await fetch(`${base}/v1/users/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@bench.io', password: PASSWORD }),
  }).then((r) => r.json() as Promise<{ access_token: string }>);
  const auth = { authorization: `Bearer ${token.access_token}` };
  const plan = await fetch(`${base}/v1/pricing_plans/create`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Bench plan',
      regions: ['FR'],
      billing_type: 'monthly',
      acquisition_type: 'pay_as_you_go_fee',
      currency: 'EUR',
      volume_unit: 'm3',
      from_date: '2020-01-01',
      ranges: [
        { volume_start: '0', volume_end: '10', price_per_unit: '1.5' },
        { volume_start: '10', volume_end: '30', price_per_unit: '2' },
        { volume_start: '30', volume_end: null, price_per_unit: '3.25' },
      ],
    }),
  }).then((r) => r.json() as Promise<{ id: string }>);

  const select = async <T>(query: ReturnType<typeof sql>) =>
    ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  // Bulk load without the per-row foreign-key triggers (the zones exist: they are selected from).
  const bulk = (query: ReturnType<typeof sql>) =>
    db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL session_replication_role = replica`);
      await tx.execute(query);
    });
  const buildingCount = Math.ceil(ZONES / ZONES_PER_BUILDING);
  const siteCount = Math.ceil(buildingCount / BUILDINGS_PER_SITE);
  let started = performance.now();
  // The hierarchy: one customer per 10 sites, 10 buildings a site, 10 zones a building, one flowbox a zone.
  await db.execute(
    sql`INSERT INTO customers (name) SELECT 'Customer ' || c FROM generate_series(1, ${Math.ceil(siteCount / 10)}) c`,
  );
  await db.execute(sql`
    INSERT INTO sites (customer_id, name)
      SELECT (SELECT id FROM customers ORDER BY name OFFSET (s - 1) / 10 LIMIT 1), 'Site ' || lpad(s::text, 4, '0')
      FROM generate_series(1, ${siteCount}) s`);
  await db.execute(sql`
    INSERT INTO buildings (site_id, name, type, address, city, zip_code, country, timezone, volume_unit,
        currency, first_day_of_week, weekend)
      SELECT (SELECT id FROM sites ORDER BY name OFFSET (b - 1) / ${BUILDINGS_PER_SITE} LIMIT 1),
        'Building ' || lpad(b::text, 5, '0'), 'office', '1 rue', 'Paris', '75001', 'FR', 'Europe/Paris',
        'm3', 'EUR', 'monday', '["saturday","sunday"]'::jsonb
      FROM generate_series(1, ${buildingCount}) b`);
  await db.execute(sql`
    INSERT INTO zones (building_id, name, profile, flowbox_model, water_temperature)
      SELECT b.id, 'Zone ' || z, 'office', 'one_inch_v1', 'cold'
      FROM buildings b CROSS JOIN generate_series(1, ${ZONES_PER_BUILDING}) z`);
  await db.execute(sql`
    INSERT INTO zone_subscriptions (zone_id, plan_id, service_level, start_date, renewal_date)
      SELECT id, ${plan.id}::uuid, 'premium', (current_date - 800), current_date + 20
      FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM zones) z WHERE n % 2 = 0;
  `);
  const zoneIds = await select<{ id: string }>(sql`SELECT id FROM zones ORDER BY id`);
  console.log(
    `  hierarchy: ${zoneIds.length} zones in ${buildingCount} buildings, ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  // Per-minute readings of 0–20 L rolled up: an hour holds 60 of them, a day 1,440. Volumes follow
  // the hour of day, so graphs are not flat; a flowbox id per zone (md5 of the zone id).
  started = performance.now();
  const hours = HOURLY_DAYS(database.driver) * 24;
  for (let offset = 0; offset < zoneIds.length; offset += 100) {
    await bulk(sql`
      INSERT INTO consumption_hourly (zone_id, hour, flowbox_id, volume_ml, flow_s, readings,
          temperature_min, temperature_max, temperature_sum, temperature_count)
        SELECT z.id, h, md5(z.id::text)::uuid, 60 * (2000 + (extract(hour FROM h)::int * 331) % 9000), 1800, 60,
          18, 24, 21 * 60, 60
        FROM (SELECT id FROM zones ORDER BY id OFFSET ${offset} LIMIT 100) z
        CROSS JOIN generate_series(date_trunc('hour', now()) - ${hours - 1} * interval '1 hour',
          date_trunc('hour', now()), interval '1 hour') h
    `);
  }
  const hourlySeconds = (performance.now() - started) / 1000;
  started = performance.now();
  // Two years of days (the year window compares with the year before), 1,440 readings a day.
  await bulk(sql`
    INSERT INTO consumption_daily (zone_id, day, flowbox_id, volume_ml, flow_s, readings)
      SELECT z.id, d::date, md5(z.id::text)::uuid, 1440 * (5000 + (extract(doy FROM d)::int * 97) % 4000),
        43200, 1440
      FROM zones z CROSS JOIN generate_series(current_date - 730, current_date, interval '1 day') d
  `);
  await db.execute(sql`ANALYZE`);
  const [counts] = await select<{ hourly: number; daily: number }>(
    sql`SELECT (SELECT count(*) FROM consumption_hourly)::int AS hourly,
      (SELECT count(*) FROM consumption_daily)::int AS daily`,
  );
  console.log(
    `  rollups: ${counts!.hourly.toLocaleString('en')} hourly rows (${hourlySeconds.toFixed(1)} s), ` +
      `${counts!.daily.toLocaleString('en')} daily rows (${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );

  const paths = await select<{
    customer_id: string;
    site_id: string;
    building_id: string;
    zone_id: string;
  }>(sql`
      SELECT s.customer_id, s.id AS site_id, b.id AS building_id, z.id AS zone_id
      FROM zones z JOIN buildings b ON b.id = z.building_id JOIN sites s ON s.id = b.site_id ORDER BY z.id`);
  const pick = () => paths[Math.floor(random() * paths.length)]!;
  const site = (p: (typeof paths)[number]) => `/v1/customers/${p.customer_id}/sites/${p.site_id}`;
  const building = (p: (typeof paths)[number]) => `${site(p)}/buildings/${p.building_id}`;
  const zone = (p: (typeof paths)[number]) => `${building(p)}/zones/${p.zone_id}`;
  // The floor every call pays: HTTP, token check, session and user lookup.
  const rows: [string, Figures][] = [
    ['/v1/users/me (sign-in check alone)', await measure(() => '/v1/users/me', base, auth)],
  ];
  for (const window of ['day', 'week', 'month', 'year'] as const) {
    await measure(() => `${zone(pick())}/consumption?window=${window}`, base, auth, 10);
    rows.push([
      `zone ${window}`,
      await measure(() => `${zone(pick())}/consumption?window=${window}`, base, auth),
    ]);
  }
  const few = Math.max(10, Math.floor(CALLS / 5));
  rows.push([
    'building (10 zones) year',
    await measure(() => `${building(pick())}/consumption?window=year`, base, auth, few),
  ]);
  rows.push([
    'building zones compared, month',
    await measure(() => `${building(pick())}/consumption/zones?window=month`, base, auth, few),
  ]);
  rows.push([
    'site (100 zones) year',
    await measure(() => `${site(pick())}/consumption?window=year`, base, auth, 10),
  ]);
  rows.push([
    'customer (up to 1,000 zones) year',
    await measure(() => `/v1/customers/${pick().customer_id}/consumption?window=year`, base, auth, 5),
  ]);
  for (const window of ['month', 'week', 'day'] as const)
    rows.push([
      `customer (up to 1,000 zones) ${window}`,
      await measure(() => `/v1/customers/${pick().customer_id}/consumption?window=${window}`, base, auth, 5),
    ]);
  rows.push([
    'customer export.csv, year',
    await measure(
      () => `/v1/customers/${pick().customer_id}/consumption/export.csv?window=year`,
      base,
      auth,
      3,
    ),
  ]);
  rows.push(['dashboard today (all 1,000 zones)', await measure(() => '/v1/dashboard/today', base, auth, 5)]);
  console.log(`\n${label} (load average now ${loadavg()[0]!.toFixed(1)})`);
  for (const [name, f] of rows) {
    console.log(
      `  GET ${name.padEnd(36)} p50 ${f.p50.toFixed(1).padStart(7)} ms   p99 ${f.p99.toFixed(1).padStart(7)} ms   (${f.calls} calls, ${f.errors} errors)`,
    );
  }
  await app.close();
  await database.close();
}

const pgUrl = process.env.FLOWBOX_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';
console.log(
  `Consumption benchmark: ${ZONES} zones, ${CALLS} calls a zone window, ` +
    `sequential, Node ${process.version}, load average ${loadavg()[0]!.toFixed(1)}`,
);
delete process.env.FLOWBOX_TEST_PG;
await bench('Embedded PGlite');
process.env.FLOWBOX_TEST_PG = pgUrl;
await bench(`PostgreSQL (${new URL(pgUrl).host})`).catch((error: unknown) =>
  console.log(`\nPostgreSQL: not measured (${String(error)})`),
);
