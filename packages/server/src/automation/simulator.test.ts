import { ConsumptionModel, createDevice, seededRandom, type SimulatedFlowbox } from '@flowbox/simulator';
import { detect, effectiveMargins, EMPTY_DETECTION, type OpeningHours } from '@flowbox/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts, zoneAutomation, zones } from '../db/schema.ts';
import { startMessaging, until } from '../flowboxes/testing.ts';
import type { DeviceMessaging } from '../mqtt/messaging.ts';
import { pairDirectly } from '../telemetry/testing.ts';
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
 * Automatic closing with the simulator (issue #8): `flowbox-sim` devices with realistic office use
 * and injected faults, driven by the test's clock (simulated hours pass in seconds), through the
 * embedded broker and the telemetry writer. A device's `flush` resolves once the broker has
 * acknowledged its readings, that is once their batch has committed (docs/telemetry.md).
 */

const OFFICE_HOURS = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day, i) => [
    day,
    i < 5 ? [{ start: '08:00', end: '18:00' }] : [],
  ]),
);

let t: TestApp;
let w: World;
let cmA: ApiClient;
let messaging: DeviceMessaging & { port: number };
let buildingPath: string;
const devices: SimulatedFlowbox[] = [];

beforeAll(async () => {
  t = await createTestApp({ accessTokenTtl: 30 * 86400 });
  w = await createWorld(t.db);
  cmA = await loginAs(t.app, 'cm.a@test.io');
  const site = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
  const building = await cmA.post(
    `${site}/buildings/create`,
    buildingBody({ volume_unit: 'liter', opening_hours: OFFICE_HOURS }),
  );
  buildingPath = `${site}/buildings/${building.json().id}`;
  messaging = await startMessaging(t);
}, 180_000);
afterAll(async () => {
  for (const device of devices) await device.stop();
  await messaging?.close();
  await t?.close();
});

type SimZone = { id: string; path: string; device: SimulatedFlowbox; flowboxId: string };

/** A premium office zone (its alerts are all raised) with a simulated, connected flowbox. */
async function officeZone(name: string, seed: number): Promise<SimZone> {
  const created = await cmA.post(`${buildingPath}/zones/create`, zoneBody({ name, profile: 'office' }));
  const zone = created.json() as { id: string; building_id: string };
  await t.db.update(zones).set({ serviceLevel: 'premium' }).where(eq(zones.id, zone.id));
  const paired = await pairDirectly(t.db, {
    customerId: w.customers.a.id,
    siteId: w.sites.a1.id,
    buildingId: zone.building_id,
    zoneId: zone.id,
  });
  const device = createDevice({
    serial: paired.serial,
    brokerUrl: `mqtt://127.0.0.1:${messaging.port}`,
    credentials: { username: paired.serial, password: paired.password },
    zone: {
      profile: 'office',
      water_points: [
        { type: 'toilet', count: 4 },
        { type: 'sink', count: 4 },
      ],
      timezone: 'Europe/Paris',
    },
    model: 'one_inch_v1',
    waterTemperature: 'cold',
    clock: { now: () => t.clock.now().getTime() },
    seed,
  });
  devices.push(device);
  await device.start();
  return { id: zone.id, path: `${buildingPath}/zones/${zone.id}`, device, flowboxId: paired.flowboxId };
}

/** Simulated time passes in steps; each step's readings are committed before the next. */
async function pass(zone: SimZone, minutes: number, stepMinutes = 1): Promise<void> {
  for (let done = 0; done < minutes; done += stepMinutes) {
    t.clock.advance(stepMinutes * 60_000);
    zone.device.tick();
    await zone.device.flush();
  }
}

const automationOf = async (zoneId: string) =>
  (await t.db.select().from(zoneAutomation).where(eq(zoneAutomation.zoneId, zoneId)))[0];
const alertsOf = (zoneId: string) => t.db.select().from(alerts).where(eq(alerts.zoneId, zoneId));

const margins = {
  automatic_closing_enabled: true,
  volume_margin_enabled: true,
  volume_margin: 150,
  duration_margin_enabled: true,
  duration_margin_minutes: 30,
};

describe('automatic closing with simulated devices', () => {
  it('a burst pipe: the valve closes and confirms, the zone locks with its alert', async () => {
    const zone = await officeZone('Simulated burst', 11);
    expect((await cmA.put(`${zone.path}/automation/update`, margins)).statusCode).toBe(200);
    await pass(zone, 5);
    expect((await automationOf(zone.id))?.lockedAt ?? null).toBeNull();
    zone.device.setFaults([{ kind: 'burst_pipe' }]);
    // Minute by minute until the zone locks, then the clock stands still: the close must be
    // confirmed within SAFETY_CONFIRM_S of the lock, and a loaded machine must not make a test
    // minute pass before the device's answer is stored.
    for (let minute = 0; minute < 3 && !(await automationOf(zone.id))?.lockedAt; minute++)
      await pass(zone, 1);
    expect((await automationOf(zone.id))?.lockedAt).toBeTruthy();
    await until(() => zone.device.valve === 'closed');
    await until(async () => {
      await t.services.automation.superviseSafetyCloses();
      return (await automationOf(zone.id))?.closeConfirmedAt;
    });
    expect(await automationOf(zone.id)).toMatchObject({ lockedBy: 'volume', closeDysfunctionRaised: false });
    expect((await alertsOf(zone.id)).map((a) => a.category)).toContain('abnormal_water_consumption_with_ac');
    const res = await cmA.put(`${zone.path}/update`, { occupants: 2 });
    expect(res.json().message).toBe('No action allowed');
    // The closed valve stops the burst: two dry minutes end the flow event.
    await pass(zone, 3);
    expect((await automationOf(zone.id))!.eventStartedAt).toBeNull();
  });

  it('a running toilet: a leakage alert after two hours of flow, once, without margins', async () => {
    const zone = await officeZone('Simulated toilet', 12);
    zone.device.setFaults([{ kind: 'running_toilet' }]);
    await pass(zone, 150, 10);
    const leaks = (await alertsOf(zone.id)).filter((a) => a.category === 'leakage_detection');
    expect(leaks).toHaveLength(1);
    expect((await automationOf(zone.id))?.lockedAt ?? null).toBeNull();
  });
});

/*
 * The week through the broker is `office-week.test.ts` (one office). Here the simulator's own
 * consumption model (the one its devices report) goes straight into the detector, for several
 * offices and seeds in a second each. Margins halve outside opening hours, as in the ingest path.
 */
describe('a normal simulated office week', () => {
  it.each([21, 22, 23, 24, 25])('seed %i: no margin crossed, no leak', (seed) => {
    const model = new ConsumptionModel(
      {
        profile: 'office',
        water_points: [
          { type: 'toilet', count: 6 },
          { type: 'sink', count: 6 },
        ],
        timezone: 'Europe/Paris',
      },
      'one_inch_v1',
      seededRandom(seed),
    );
    const zone = {
      profile: 'office' as const,
      openingHours: OFFICE_HOURS as OpeningHours,
      timezone: 'Europe/Paris',
    };
    const base = { volumeMl: margins.volume_margin * 1000, flowS: margins.duration_margin_minutes * 60 };
    let state = EMPTY_DETECTION;
    let drawn = 0;
    const start = Date.parse('2026-11-23T00:00:00Z');
    for (let minute = 0; minute < 7 * 24 * 60; minute++) {
      const from = start + minute * 60_000;
      const reading = model.advance(from, from + 60_000, true);
      const measuredAt = new Date(from + 60_000);
      const verdict = detect(
        state,
        { measuredAt, intervalS: 60, volumeMl: Math.round(reading.volumeL * 1000), flowS: reading.flowS },
        effectiveMargins(base, zone, measuredAt),
        measuredAt,
      );
      expect(verdict.crossed, `minute ${minute}`).toBeNull();
      expect(verdict.leak).toBe(false);
      state = verdict.state;
      drawn += reading.volumeL;
    }
    expect(drawn).toBeGreaterThan(100);
  });
});
