import { readingsOfFlowbox } from '../db/readings.ts';
import { deviceTopic, encodePayload, HOLD_S, PROTOCOL_VERSION, type Telemetry } from '@flowbox/shared';
import {
  deliver,
  deliveryArb,
  measure,
  segmentArb,
  type Delivered,
  type DeliveryPlan,
  type Segment,
} from '@flowbox/shared/testing';
import { and, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alerts,
  consumptionHourly,
  deviceCommands,
  telemetryReadings,
  zoneAutomation,
} from '../db/schema.ts';
import { FlowboxIngest } from '../flowboxes/ingest.service.ts';
import { startMessaging, until } from '../flowboxes/testing.ts';
import type { DeviceMessaging } from '../mqtt/messaging.ts';
import { pairDirectly, type PairedDevice } from '../telemetry/testing.ts';
import { TelemetryWriter } from '../telemetry/writer.ts';
import {
  buildingBody,
  createTestApp,
  createWorld,
  loginAs,
  zoneBody,
  type ApiClient,
  type TestApp,
  type World,
} from '../test/harness.ts';

/*
 * Water safety whatever the delivery (issue #29, docs/automation.md "Whatever the delivery"), end to
 * end through ingest, detection and the database (PGlite, and PostgreSQL with FLOWBOX_TEST_PG): the
 * outside check's scenario by MQTT, then generated water use × generated delivery, each delivery
 * judged against the same water delivered live in a zone of its own.
 */

let t: TestApp;
let w: World;
let cmA: ApiClient;
let site: string;
let buildingId: string;
const log = { warn: () => undefined, error: () => undefined };

beforeAll(async () => {
  t = await createTestApp({ accessTokenTtl: 30 * 86400 });
  w = await createWorld(t.db);
  cmA = await loginAs(t.app, 'cm.a@test.io');
  site = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
  const building = await cmA.post(`${site}/buildings/create`, buildingBody({ volume_unit: 'liter' }));
  buildingId = building.json().id as string;
});
afterAll(() => t.close());

type Zone = { id: string; device: PairedDevice };

/** A zone of its own with one paired flowbox, its automation as given (volume margin in litres). */
async function zoneWith(
  name: string,
  automation: { closing: boolean; volumeL: number | null; minutes: number | null },
): Promise<Zone> {
  const created = await cmA.post(
    `${site}/buildings/${buildingId}/zones/create`,
    zoneBody({ name, profile: 'housing' }),
  );
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  const saved = await cmA.put(`${site}/buildings/${buildingId}/zones/${id}/automation/update`, {
    automatic_closing_enabled: automation.closing,
    volume_margin_enabled: automation.volumeL !== null,
    volume_margin: automation.volumeL ?? 50,
    duration_margin_enabled: automation.minutes !== null,
    duration_margin_minutes: automation.minutes ?? 30,
  });
  expect(saved.statusCode, saved.body).toBe(200);
  const device = await pairDirectly(t.db, {
    customerId: w.customers.a.id,
    siteId: w.sites.a1.id,
    buildingId,
    zoneId: id,
  });
  return { id, device };
}

/** What a zone's detection did: its lock, the closes sent, and its alerts (cause and count). */
async function outcome(zone: Zone) {
  const [automation] = await t.db.select().from(zoneAutomation).where(eq(zoneAutomation.zoneId, zone.id));
  const closes = await t.db
    .select()
    .from(deviceCommands)
    .where(and(eq(deviceCommands.flowboxId, zone.device.flowboxId), eq(deviceCommands.name, 'valve_close')));
  const raised = await t.db
    .select({ category: alerts.category, cause: alerts.cause, count: alerts.count, details: alerts.details })
    .from(alerts)
    .where(eq(alerts.zoneId, zone.id));
  return { locked: automation?.lockedAt !== null, closes: closes.length, alerts: raised };
}

/** One reading as a device following docs/protocol.md publishes it. */
const message = (
  r: { seq: number; at: number; volumeMl: number; flowS: number },
  sentAt: number | null,
): Telemetry => ({
  v: PROTOCOL_VERSION,
  seq: r.seq,
  at: new Date(r.at).toISOString(),
  interval_s: 60,
  volume_l: r.volumeMl / 1000,
  flow_s: r.flowS,
  temperature_c: 20,
  humidity_pct: 50,
  ...(sentAt === null ? {} : { sent_at: new Date(sentAt).toISOString() }),
});

describe('the outside check: a backlog at first contact, then ten fresh minutes (MQTT)', () => {
  let messaging: DeviceMessaging & { port: number };
  beforeAll(async () => {
    messaging = await startMessaging(t);
  });
  afterAll(() => messaging.close());

  // Two days of office use buffered before the first contact: flushes and hand washes, never more
  // than 26 L in one event, at least three flow-free minutes between events (the outside check
  // sent a month; the class is the same with any backlog holding more than the margin).
  const office: Segment[] = [];
  for (let day = 0; day < 2; day++) {
    for (let i = 0; i < 24; i++)
      office.push({ kind: 'use', minutes: 2, lpm: 13 }, { kind: 'idle', minutes: 3 });
    office.push({ kind: 'idle', minutes: 1440 - 24 * 5 });
  }

  for (const withSentAt of [true, false])
    it(`closes nothing and raises no alert, every litre stored (${withSentAt ? 'with' : 'without'} sent_at)`, async () => {
      const zone = await zoneWith(`Office ${withSentAt}`, { closing: true, volumeL: 30, minutes: null });
      const start = t.clock.now().getTime() - 2 * 86_400_000;
      const readings = measure(office, start, { skewMs: 0 });
      const backlog = readings.filter((r) => r.trueEnd <= t.clock.now().getTime());
      const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${messaging.port}`, {
        username: zone.device.serial,
        password: zone.device.password,
        clientId: zone.device.serial,
        reconnectPeriod: 0,
      });
      try {
        const topic = deviceTopic(zone.device.serial, 'telemetry');
        const sentAt = () => (withSentAt ? t.clock.now().getTime() : null);
        // The buffer, in windows of 100 in flight, as a device replays it.
        for (let i = 0; i < backlog.length; i += 100)
          await Promise.all(
            backlog
              .slice(i, i + 100)
              .map((r) => client.publishAsync(topic, encodePayload(message(r, sentAt())), { qos: 1 })),
          );
        let seq = backlog.at(-1)!.seq;
        for (let minute = 0; minute < 10; minute++) {
          t.clock.advance(60_000);
          seq += 1;
          const r = {
            seq,
            at: t.clock.now().getTime(),
            volumeMl: minute < 2 ? 13_000 : 0,
            flowS: minute < 2 ? 60 : 0,
          };
          await client.publishAsync(topic, encodePayload(message(r, sentAt())), { qos: 1 });
          const last = seq;
          await until(async () => {
            const [row] = await t.db
              .select({ seq: sql<number>`max(${telemetryReadings.seq})` })
              .from(telemetryReadings)
              .where(readingsOfFlowbox(zone.device.flowboxId));
            return Number(row?.seq) === last;
          }, 60_000);
        }
      } finally {
        await client.endAsync(true);
      }
      const done = await outcome(zone);
      expect(done).toEqual({ locked: false, closes: 0, alerts: [] });
      // Every litre stored exactly, once.
      const [stored] = await t.db
        .select({ ml: sql<string>`sum(volume_ml)` })
        .from(consumptionHourly)
        .where(eq(consumptionHourly.flowboxId, zone.device.flowboxId));
      const total = backlog.reduce((sum, r) => sum + r.volumeMl, 0) + 2 * 13_000;
      expect(Number(stored!.ml)).toBe(total);
    }, 300_000);
});

describe('generated water use × generated delivery, through ingest', () => {
  let writer: TelemetryWriter;
  let ingest: FlowboxIngest;
  beforeAll(() => {
    writer = new TelemetryWriter(t.services.context, t.services.telemetry, log);
    ingest = new FlowboxIngest(
      t.services.context,
      t.services.flowboxes,
      t.services.commands,
      log,
      180,
      writer,
    );
  });
  afterAll(() => writer.close());

  /**
   * Each zone's batches handed to ingest at their receipt on the server's clock (the zones' in one
   * time order), each batch's messages together.
   */
  async function run(deliveries: readonly { zone: Zone; batches: readonly Delivered[][] }[]): Promise<void> {
    // Merged by receipt, each zone's batches kept in their own order (two instances commit out of it).
    const queues = deliveries.map(({ zone, batches }) => batches.map((batch) => ({ zone, batch })));
    const all: { zone: Zone; batch: Delivered[] }[] = [];
    while (queues.some((q) => q.length > 0)) {
      const next = queues
        .filter((q) => q.length > 0)
        .reduce((a, b) => (b[0]!.batch[0]!.receivedAt < a[0]!.batch[0]!.receivedAt ? b : a));
      all.push(next.shift()!);
    }
    for (const { zone, batch } of all) {
      const ahead = batch[0]!.receivedAt - t.clock.now().getTime();
      if (ahead > 0) t.clock.advance(ahead);
      const topic = deviceTopic(zone.device.serial, 'telemetry');
      await Promise.all(
        batch.map((d) =>
          ingest.handle(topic, new TextEncoder().encode(encodePayload(message(d.reading, d.sentAt)))),
        ),
      );
    }
  }

  /** Alerts as compared: what was raised and how often, the crossing it names. */
  const judged = (o: Awaited<ReturnType<typeof outcome>>) =>
    o.alerts
      .map((a) => `${a.category}|${a.cause}|${a.count}|${(a.details as { trigger?: string }).trigger ?? ''}`)
      .sort();

  it('a reading past a hole that never fills waits HOLD_S, then the sweep closes the water (issue #29)', async () => {
    const zone = await zoneWith('Hole never filled', { closing: true, volumeL: 50, minutes: null });
    const start = t.clock.now().getTime() + 60_000;
    const sent = (seq: number, litres: number): Delivered[] => {
      const at = start + seq * 60_000;
      const reading = { seq, at, trueEnd: at, intervalS: 60, volumeMl: litres * 1000, flowS: 60 };
      return [{ reading, receivedAt: at + 300, sentAt: at }];
    };
    // 20 L, then seq 2 lost (refused by ingest, say), then 40 L, and the device falls silent.
    await run([{ zone, batches: [sent(1, 20), sent(3, 40)] }]);
    await until(
      async () =>
        (await t.db.select().from(telemetryReadings).where(readingsOfFlowbox(zone.device.flowboxId)))
          .length === 2,
    );
    const [held] = await t.db.select().from(zoneAutomation).where(eq(zoneAutomation.zoneId, zone.id));
    expect(held!.held.map((h) => h.seq)).toEqual([3]);
    expect(held!.heldUntil).not.toBeNull();
    expect((await outcome(zone)).closes).toBe(0);
    // Not before its wait ends; then one pass of the sweep judges it: fresh water past the margin.
    expect(await t.services.automation.sweepHeldReadings()).toBe(0);
    t.clock.advance(HOLD_S * 1000);
    expect(await t.services.automation.sweepHeldReadings()).toBe(1);
    const after = await outcome(zone);
    expect(after).toMatchObject({ locked: true, closes: 1 });
    const [swept] = await t.db.select().from(zoneAutomation).where(eq(zoneAutomation.zoneId, zone.id));
    expect(swept).toMatchObject({ held: [], heldUntil: null, seqs: { [zone.device.flowboxId]: 3 } });
    expect(await t.services.automation.sweepHeldReadings()).toBe(0);
  });

  it('alert-only zones: the same alerts whatever the delivery, with and without sent_at', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc
          .array(segmentArb, { minLength: 1, maxLength: 8 })
          .chain((use) =>
            fc.tuple(fc.constant(use), deliveryArb(use.reduce((s, x) => s + x.minutes, 0) + 4)),
          ),
        fc.record({ volumeL: fc.integer({ min: 10, max: 150 }), minutes: fc.integer({ min: 5, max: 60 }) }),
        fc.boolean(),
        async ([use, plan], margins, withSentAt) => {
          n += 1;
          const start = t.clock.now().getTime() + 60_000;
          const readings = measure(use, start, { skewMs: 0 });
          const zones = [
            await zoneWith(`Live ${n}`, { closing: false, ...margins }),
            await zoneWith(`Other ${n}`, { closing: false, ...margins }),
          ] as const;
          const options = { delayMs: 300, withSentAt };
          await run([
            { zone: zones[0], batches: deliver(readings, { kind: 'live' }, { skewMs: 0 }, options) },
            { zone: zones[1], batches: deliver(readings, plan as DeliveryPlan, { skewMs: 0 }, options) },
          ]);
          const live = await outcome(zones[0]);
          const other = await outcome(zones[1]);
          expect(judged(other)).toEqual(judged(live));
          expect(other.closes + live.closes).toBe(0);
        },
      ),
      { numRuns: 5 },
    );
  }, 600_000);
});
