import { encodePayload, type Flowbox } from '@flowbox/shared';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts, flowboxes } from '../db/schema.ts';
import { subscribe } from '../flowboxes/testing.ts';
import {
  buildingBody,
  createWorldApp,
  zoneBody,
  type ApiClient,
  type TestApp,
  type World,
} from '../test/harness.ts';
import { pairDirectly, reading, type PairedDevice, type TelemetryZone } from '../telemetry/testing.ts';
import { TelemetryWriter } from '../telemetry/writer.ts';
import { FlowboxIngest } from '../flowboxes/ingest.service.ts';
import { clockSkewCause } from './raisers.ts';

/*
 * The device clock alert (docs/automation.md "Device clocks", docs/alerts.md): readings go through
 * the app's telemetry writer and its hooks, on the real database; the server's clock is the test's.
 */

let t: TestApp;
let w: World;
let cmA: ApiClient;
let zone: TelemetryZone;
let zonePath: string;
let writer: TelemetryWriter;
const log = { warn: () => undefined, error: () => undefined };
const MINUTE = 60_000;

beforeAll(async () => {
  ({ t, w, cmA } = await createWorldApp());
  const site = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
  const buildingId = (await cmA.post(`${site}/buildings/create`, buildingBody())).json().id as string;
  const zoneId = (await cmA.post(`${site}/buildings/${buildingId}/zones/create`, zoneBody())).json()
    .id as string;
  zonePath = `${site}/buildings/${buildingId}/zones/${zoneId}`;
  zone = { customerId: w.customers.a.id, siteId: w.sites.a1.id, buildingId, zoneId };
  await subscribe(t, zoneId);
  writer = new TelemetryWriter(t.services.context, t.services.telemetry, log);
});
afterAll(async () => {
  await writer.close();
  await t.close();
});

/**
 * A device whose clock reads the server's time moved by `skewMs` (positive: ahead), one reading a
 * minute. `send` answers the whole seconds the writer took to receive and store the reading: the
 * test's clock runs with the real one, so on a busy machine that delay, which a device without
 * sent_at cannot tell from skew, is part of what the server measures.
 */
async function device(): Promise<PairedDevice & { send: (skewMs: number) => Promise<number> }> {
  const paired = await pairDirectly(t.db, zone);
  let seq = 0;
  return {
    ...paired,
    send: async (skewMs) => {
      const sent = Date.now();
      const at = new Date(t.clock.now().getTime() + skewMs);
      expect(await writer.submit(paired.serial, reading(++seq, at, 0))).toBe('stored');
      return Math.ceil((Date.now() - sent) / 1000);
    },
  };
}

const clockAlerts = (flowboxId: string) =>
  t.db
    .select()
    .from(alerts)
    .where(and(eq(alerts.zoneId, zone.zoneId), eq(alerts.cause, clockSkewCause(flowboxId))));
const activeClockAlert = async (flowboxId: string) =>
  (await clockAlerts(flowboxId)).find((a) => a.state !== 'resolved');
const flowbox = async (flowboxId: string) =>
  (await cmA.get(`${zonePath}/flowboxes/${flowboxId}/info`)).json<Flowbox>();

describe('the device clock alert (flowbox_internal_status)', () => {
  it('opens for a device whose readings are dated 5 minutes ahead, and resolves itself once its clock is right again', async () => {
    const d = await device();
    await d.send(5 * MINUTE);
    expect(await activeClockAlert(d.flowboxId)).toMatchObject({
      category: 'flowbox_internal_status',
      state: 'open',
      flowboxSerial: d.serial,
      details: { clock: 'ahead', skew_s: 300, bound_s: 120 },
    });
    expect(await flowbox(d.flowboxId)).toMatchObject({ clock_skew_s: 300, clock_skew_alarming: true });
    t.clock.advance(MINUTE);
    await d.send(5 * MINUTE); // the same state again: no repeat counted
    expect(await activeClockAlert(d.flowboxId)).toMatchObject({ count: 1 });

    // Set to 100 s ahead: within the bound, not yet within the hysteresis (90 s): still open.
    t.clock.advance(MINUTE);
    const nearDelayS = await d.send(100_000);
    const near = await flowbox(d.flowboxId);
    expect(Math.abs(near.clock_skew_s! - 100)).toBeLessThanOrEqual(1 + nearDelayS);
    expect(near.clock_skew_alarming).toBe(false);
    expect(await activeClockAlert(d.flowboxId)).toBeDefined();

    // Set right (its SNTP caught up): resolved automatically, by the device.
    t.clock.advance(MINUTE);
    const rightDelayS = await d.send(0);
    expect(await activeClockAlert(d.flowboxId)).toBeUndefined();
    expect(await clockAlerts(d.flowboxId)).toMatchObject([
      { state: 'resolved', resolvedAutomatically: true, resolvedBy: null },
    ]);
    const right = await flowbox(d.flowboxId);
    expect(Math.abs(right.clock_skew_s!)).toBeLessThanOrEqual(2 + rightDelayS);
    expect(right.clock_skew_alarming).toBe(false);
  });

  it('opens for a device 5 minutes behind as well, once its readings are paced (without sent_at)', async () => {
    const d = await device();
    await d.send(-5 * MINUTE);
    // Its first reading could as well be 5 minutes old: delay, not skew (docs/automation.md).
    expect(await activeClockAlert(d.flowboxId)).toBeUndefined();
    t.clock.advance(MINUTE);
    await d.send(-5 * MINUTE);
    expect(await activeClockAlert(d.flowboxId)).toMatchObject({
      details: { clock: 'behind', skew_s: 300, bound_s: 120 },
    });
    expect(await flowbox(d.flowboxId)).toMatchObject({ clock_skew_s: -300, clock_skew_alarming: true });
  });

  it('raises nothing for a device 30 s ahead or 30 s behind', async () => {
    const ahead = await device();
    const behind = await device();
    for (let minute = 0; minute < 3; minute += 1) {
      await ahead.send(30_000);
      await behind.send(-30_000);
      t.clock.advance(MINUTE);
    }
    expect(await clockAlerts(ahead.flowboxId)).toEqual([]);
    expect(await clockAlerts(behind.flowboxId)).toEqual([]);
    expect(await flowbox(ahead.flowboxId)).toMatchObject({ clock_skew_s: 30, clock_skew_alarming: false });
    expect(await flowbox(behind.flowboxId)).toMatchObject({ clock_skew_s: -30, clock_skew_alarming: false });
  });

  it('opens for a device whose readings are all dropped for their dates (a clock reset to 1970), once a minute at most', async () => {
    const d = await device();
    const ingest = new FlowboxIngest(
      t.services.context,
      t.services.flowboxes,
      t.services.commands,
      log,
      180,
      writer,
    );
    const send = (seq: number, at: string) =>
      ingest.handle(
        `flowbox/${d.serial}/telemetry`,
        new TextEncoder().encode(encodePayload(reading(seq, new Date(at), 0))),
      );
    await send(1, '1970-01-01T00:01:00Z');
    await send(2, '1970-01-01T00:02:00Z');
    expect(ingest.counters.dropped.stale).toBe(2);
    const alert = await activeClockAlert(d.flowboxId);
    expect(alert).toMatchObject({ state: 'open', details: { clock: 'behind', bound_s: 120 } });
    expect(alert!.count).toBe(1);
    // Judged from the dropped reading, not stored: placement keeps the clock of stored readings.
    expect((await flowbox(d.flowboxId)).clock_skew_s).toBeNull();
    // Its clock set right: the next stored readings measure it again (the first one paced) and
    // resolve the alert.
    t.clock.advance(MINUTE);
    await d.send(0);
    t.clock.advance(MINUTE);
    await d.send(0);
    expect(await activeClockAlert(d.flowboxId)).toBeUndefined();
  });

  it('raises nothing for the zone neighbour of a skewed device, even in the same batch', async () => {
    const skewed = await device();
    const neighbour = await device();
    await Promise.all([skewed.send(5 * MINUTE), neighbour.send(0)]);
    expect(await activeClockAlert(skewed.flowboxId)).toBeDefined();
    expect(await clockAlerts(neighbour.flowboxId)).toEqual([]);
    expect(await flowbox(neighbour.flowboxId)).toMatchObject({ clock_skew_s: 0, clock_skew_alarming: false });
    const inZone = await t.db
      .select()
      .from(alerts)
      .where(and(eq(alerts.zoneId, zone.zoneId), like(alerts.cause, 'clock_skew:%')));
    expect(inZone.every((a) => a.flowboxId !== neighbour.flowboxId)).toBe(true);
  });
  it('with sent_at, opens at the first reading of a device 5 minutes behind', async () => {
    const paired = await pairDirectly(t.db, zone);
    const at = new Date(t.clock.now().getTime() - 5 * MINUTE);
    const message = { ...reading(1, at, 0), sent_at: at.toISOString() };
    expect(await writer.submit(paired.serial, message)).toBe('stored');
    expect(await activeClockAlert(paired.flowboxId)).toMatchObject({
      details: { clock: 'behind', skew_s: 300, bound_s: 120 },
    });
  });

  for (const withSentAt of [true, false])
    it(`raises nothing for a backlog at first contact: an hour of readings, then live ones (${withSentAt ? 'with' : 'without'} sent_at)`, async () => {
      const paired = await pairDirectly(t.db, zone);
      const now = t.clock.now().getTime();
      const sentAt = new Date(now).toISOString();
      const backlog = Array.from({ length: 60 }, (_, i) => {
        const message = reading(i + 1, new Date(now - (60 - i) * MINUTE), 0);
        return withSentAt ? { ...message, sent_at: sentAt } : message;
      });
      for (const message of backlog) await writer.submit(paired.serial, message);
      for (let seq = 61; seq <= 63; seq++) {
        t.clock.advance(MINUTE);
        const at = t.clock.now();
        const message = reading(seq, at, 0);
        await writer.submit(paired.serial, withSentAt ? { ...message, sent_at: at.toISOString() } : message);
      }
      expect(await clockAlerts(paired.flowboxId)).toEqual([]);
      const [row] = await t.db.select().from(flowboxes).where(eq(flowboxes.id, paired.flowboxId));
      expect(Math.abs(row!.clockOffsetMs!)).toBeLessThanOrEqual(2000);
    });
});
