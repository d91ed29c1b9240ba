// Benchmark of storage per device (issue #32 "Data lifecycle"): how many bytes a raw reading, an
// hourly figure and a daily figure take on PostgreSQL with their indexes, measured on rows the real
// telemetry writer stores (one reading a minute per device, a day of them), in the weekly partitions
// of migration 0027, packed (VACUUM FULL). Prints bytes per row and the disk a device needs per year with
// the raw readings kept TELEMETRY_RAW_RETENTION_DAYS, and the sizing table of docs/operations.md
// "Storage". Runs on PostgreSQL (FLOWBOX_TEST_PG, default postgres://postgres@127.0.0.1:5432/postgres:
// a throw-away database of its own). Knobs: BENCH_DEVICES (200), BENCH_DAYS (1), BENCH_RETENTION_DAYS (90).
import { sql } from 'drizzle-orm';

process.env.FLOWBOX_TEST_PG ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const DEVICES = Number(process.env.BENCH_DEVICES ?? 200);
const DAYS = Number(process.env.BENCH_DAYS ?? 1);
const RETENTION_DAYS = Number(process.env.BENCH_RETENTION_DAYS ?? 90);
const MINUTES_A_YEAR = 525_960;
const HOURS_A_YEAR = 8_766;

const { createTestApp } = await import('../packages/server/src/test/harness.ts');
const { createZones, pairDirectly, reading } = await import('../packages/server/src/telemetry/testing.ts');
const { TelemetryWriter } = await import('../packages/server/src/telemetry/writer.ts');
const { TelemetryHooks } = await import('../packages/server/src/telemetry/hooks.ts');
const { keepReadingPartitions } = await import('../packages/server/src/telemetry/reading-partitions.repo.ts');

const t = await createTestApp();
const quiet = { warn: () => undefined, error: (...a: unknown[]) => console.error(...a) };
const writer = new TelemetryWriter(t.services.context, new TelemetryHooks(), quiet);
const now = t.clock.now();
const start = now.getTime() - DAYS * 86_400_000;
await keepReadingPartitions(t.db, now, RETENTION_DAYS);
const zones = await createZones(t.db, 'Europe/Paris', Math.max(1, Math.ceil(DEVICES / 10)));
const devices = [];
for (let i = 0; i < DEVICES; i++)
  devices.push(await pairDirectly(t.db, zones[i % zones.length]!, `STORE-${String(i).padStart(6, '0')}`));

const began = Date.now();
const minutes = DAYS * 1440;
for (let m = 1; m <= minutes; m++) {
  const at = new Date(start + m * 60_000);
  // A realistic mix: most minutes dry, some with water, climate every minute.
  await Promise.all(
    devices.map((d, i) => writer.submit(d.serial, reading(m, at, (m + i) % 7 === 0 ? 6.5 : 0))),
  );
}
const stored = DEVICES * minutes;
console.log(
  `stored ${stored.toLocaleString('en')} readings in ${((Date.now() - began) / 1000).toFixed(0)} s`,
);

// Packed (VACUUM FULL): the hourly and daily figures are updated by every reading of their hour or
// day, and a day's run leaves their tables mostly dead rows that a running server's autovacuum
// reuses; raw readings are only inserted, so packing changes little for them.
await t.db.execute(sql`VACUUM FULL ANALYZE`);
const sizes = async (like: string) => {
  const result = await t.db
    .execute(sql`SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint AS bytes,
      coalesce(sum(pg_relation_size(c.oid)), 0)::bigint AS heap
    FROM pg_class c WHERE c.relkind = 'r' AND c.relname LIKE ${like}`);
  const row = (result as unknown as { rows: { bytes: string; heap: string }[] }).rows[0]!;
  return { bytes: Number(row.bytes), heap: Number(row.heap) };
};
const count = async (table: string) => {
  const result = await t.db.execute(sql.raw(`SELECT count(*)::bigint AS n FROM ${table}`));
  return Number((result as unknown as { rows: { n: string }[] }).rows[0]!.n);
};
const raw = await sizes('telemetry_readings%');
const hourly = await sizes('consumption_hourly');
const daily = await sizes('consumption_daily');
const hourlyRows = await count('consumption_hourly');
const dailyRows = await count('consumption_daily');
const perRaw = raw.bytes / stored;
const perHour = hourly.bytes / hourlyRows;
const perDay = daily.bytes / dailyRows;
console.log(
  `raw reading: ${perRaw.toFixed(0)} B with its indexes (${(raw.heap / stored).toFixed(0)} B of heap); ` +
    `hourly figure: ${perHour.toFixed(0)} B; daily figure: ${perDay.toFixed(0)} B`,
);
const rawKept = Math.min(RETENTION_DAYS * 1440, MINUTES_A_YEAR) * perRaw;
const yearOfFigures = HOURS_A_YEAR * perHour + 365.25 * perDay;
console.log(
  `per device: raw readings kept ${RETENTION_DAYS} days ${(rawKept / 1e6).toFixed(1)} MB (a bound, not growing); ` +
    `figures ${(yearOfFigures / 1e6).toFixed(2)} MB a year (kept for years); ` +
    `raw kept for ever would be ${((MINUTES_A_YEAR * perRaw) / 1e6).toFixed(1)} MB a year`,
);
console.log('\n| devices | 1 year | 3 years | 10 years |');
console.log('|---|---|---|---|');
for (const n of [1_000, 10_000, 100_000]) {
  const disk = (years: number) => {
    const bytes = n * (rawKept + years * yearOfFigures);
    return bytes >= 1e12 ? `${(bytes / 1e12).toFixed(1)} TB` : `${(bytes / 1e9).toFixed(0)} GB`;
  };
  console.log(`| ${n.toLocaleString('en')} | ${disk(1)} | ${disk(3)} | ${disk(10)} |`);
}
await writer.close();
await t.close();
