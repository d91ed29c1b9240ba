import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type Services } from '../app.ts';
import type { App } from '../http/types.ts';
import { TelemetryWriter } from '../telemetry/index.ts';
import { createZones, pairDirectly, reading, type PairedDevice } from '../telemetry/testing.ts';
import { openTestDatabase, testConfig } from '../test/harness.ts';
import type { Database } from './client.ts';
import { alerts, schedules, zoneAutomation, zones } from './schema.ts';

/*
 * docs/decisions.md "One connection per operation": a transaction never waits for a second
 * connection of its own pool. Here one instance runs on a pool of TWO connections (PostgreSQL;
 * PGlite is one connection anyway) while ingest batches overlap with every job of the product and
 * API reads. Any path that took a second connection inside its transaction would either stall
 * here (each of the two connections waiting for the other) or be caught by the connection guard
 * of the test database; the pool's acquisition timeout turns a stall into failed batches.
 */

const ZONES = 6;
const MINUTES = 8;

let database: Database;
let app: App;
let services: Services;
let devices: PairedDevice[];

beforeAll(async () => {
  database = await openTestDatabase({ poolSize: 2 });
  ({ app, services } = await buildApp({ config: testConfig(), db: database.db, logger: false }));
  await app.ready();
  const created = await createZones(database.db, 'Europe/Paris', ZONES);
  devices = [];
  for (const zone of created) devices.push(await pairDirectly(database.db, zone));
  const zoneIds = created.map((z) => z.zoneId);
  for (const zoneId of zoneIds) {
    // Premium, with automatic closing after one minute of flow and a schedule running now: every
    // batch locks zone rows, closes valves, raises alerts; every job finds work.
    await database.db
      .update(zones)
      .set({ serviceLevel: 'premium', scheduledClosingAuthorised: true })
      .where(eq(zones.id, zoneId));
    await database.db.insert(zoneAutomation).values({
      zoneId,
      automaticClosingEnabled: true,
      durationMarginEnabled: true,
      durationMarginMinutes: 1,
    });
    const today = new Date().toISOString().slice(0, 10);
    await database.db.insert(schedules).values({
      zoneId,
      label: 'All day',
      dateStart: today,
      dateEnd: today,
      closingTime: '00:00',
      openingTime: '23:59',
      recurring: false,
    });
  }
});
afterAll(async () => {
  await app?.close();
  await database?.close();
});

/** Runs `pass` `times` times, one after the other. */
async function repeat(times: number, pass: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < times; i++) await pass();
}

describe('one instance on a small pool', () => {
  it('stores every reading and runs every job while ingest batches overlap with the jobs', async () => {
    const log = { warn: () => undefined, error: () => undefined };
    // Three writers of three overlapping batches each: nine transactions want the two connections.
    const writers = [1, 2, 3].map(
      () => new TelemetryWriter(services.context, services.telemetry, log, { maxBatch: 2, concurrency: 3 }),
    );
    const start = Date.now() - MINUTES * 60_000;
    const submitted: Promise<string>[] = [];
    for (let minute = 1; minute <= MINUTES; minute++)
      devices.forEach((device, i) => {
        const at = new Date(start + minute * 60_000);
        // Sent now, all at once (a backlog whose water still runs): `sent_at` says how old each is.
        const message = { ...reading(minute, at, 3), flow_s: 60, sent_at: new Date().toISOString() };
        submitted.push(writers[i % writers.length]!.submit(device.serial, message));
      });
    const jobs = [
      repeat(5, () => services.scheduleRunner.runDue()),
      repeat(5, () => services.automation.superviseSafetyCloses()),
      repeat(5, () => services.alertNotifier.runPass()),
      repeat(5, () => services.commands.dispatchDue()),
      repeat(5, () => services.subscriptions.renewDue()),
      repeat(10, () => app.inject({ method: 'GET', url: '/v1/health' })),
    ];
    const outcomes = await Promise.all(submitted);
    await Promise.all(jobs);
    await Promise.all(writers.map((w) => w.close()));

    expect(outcomes.every((o) => o === 'stored')).toBe(true);
    expect(writers.reduce((n, w) => n + w.counters.failed_batches, 0)).toBe(0);
    const locked = await database.db.select().from(zoneAutomation);
    expect(locked.filter((a) => a.lockedAt !== null)).toHaveLength(ZONES);
    const raised = await database.db.select().from(alerts);
    expect(raised.filter((a) => a.category === 'abnormal_water_consumption_with_ac')).toHaveLength(ZONES);
  });
});
