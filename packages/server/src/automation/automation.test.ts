import {
  deviceTopic,
  encodePayload,
  EXIT_BLOCK_S,
  PROTOCOL_VERSION,
  translate,
  type MessageKey,
} from '@flowbox/shared';
import { and, eq } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts, deviceCommands, emails, events, pricingPlans, zoneAutomation, zones } from '../db/schema.ts';
import { startMessaging, until } from '../flowboxes/testing.ts';
import type { DeviceMessaging } from '../mqtt/messaging.ts';
import { pairDirectly, reading, type PairedDevice } from '../telemetry/testing.ts';
import {
  buildingBody,
  createTestApp,
  createWorld,
  loginAs,
  scheduleBody,
  zoneBody,
  type ApiClient,
  type TestApp,
  type World,
} from '../test/harness.ts';
import { SAFETY_CLOSE_TTL_S, SAFETY_CONFIRM_S } from './automation.service.ts';

/*
 * Automatic closing end to end (issue #8): devices speak MQTT to the embedded broker, readings go
 * through the telemetry batch writer into PGlite (or PostgreSQL), detection runs in its
 * transaction, the safety close comes back to the device. The server's clock is the test's.
 */

let t: TestApp;
let w: World;
let cmA: ApiClient;
let messaging: DeviceMessaging & { port: number };
let buildingPath: string;
const clients: MqttClient[] = [];

beforeAll(async () => {
  // Hours pass on the clock: sessions must outlive them.
  t = await createTestApp({ accessTokenTtl: 7 * 86400 });
  w = await createWorld(t.db);
  cmA = await loginAs(t.app, 'cm.a@test.io');
  const site = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
  const building = await cmA.post(`${site}/buildings/create`, buildingBody({ volume_unit: 'liter' }));
  buildingPath = `${site}/buildings/${building.json().id}`;
  messaging = await startMessaging(t);
});
afterAll(async () => {
  for (const c of clients) await c.endAsync(true);
  await messaging.close();
  await t.close();
});

type Zone = { id: string; name: string; path: string; device: PairedDevice; client: MqttClient; seq: number };

/** A zone with one paired flowbox whose device is connected and listens to its commands. */
async function zoneWithDevice(name: string, fields: Record<string, unknown> = {}): Promise<Zone> {
  const created = await cmA.post(
    `${buildingPath}/zones/create`,
    zoneBody({ name, profile: 'office', ...fields }),
  );
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  const device = await pairDirectly(t.db, {
    customerId: w.customers.a.id,
    siteId: w.sites.a1.id,
    buildingId: created.json().building_id,
    zoneId: id,
  });
  const zone = {
    id,
    name,
    path: `${buildingPath}/zones/${id}`,
    device,
    client: await connect(device),
    seq: 0,
  };
  return zone;
}

async function connect(device: PairedDevice): Promise<MqttClient> {
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${messaging.port}`, {
    username: device.serial,
    password: device.password,
    clientId: device.serial,
    reconnectPeriod: 0,
  });
  await client.subscribeAsync(deviceTopic(device.serial, 'commands'), { qos: 1 });
  clients.push(client);
  return client;
}

/** The distinct close commands a device received (a re-sent one counts once). */
function closesReceived(client: MqttClient): { id: string }[] {
  const received: { id: string }[] = [];
  client.on('message', (_topic, payload) => {
    const command = JSON.parse(payload.toString()) as { id: string; name: string };
    if (command.name === 'close_valve' && !received.some((c) => c.id === command.id)) received.push(command);
  });
  return received;
}

/** The clock moves a minute on, and the device reports that minute's flow. */
async function minuteOf(zone: Zone, liters: number): Promise<void> {
  t.clock.advance(60_000);
  zone.seq += 1;
  const message = { ...reading(zone.seq, t.clock.now(), liters), flow_s: liters > 0 ? 60 : 0 };
  await zone.client.publishAsync(deviceTopic(zone.device.serial, 'telemetry'), encodePayload(message), {
    qos: 1,
  });
}

const automationOf = async (zoneId: string) =>
  (await t.db.select().from(zoneAutomation).where(eq(zoneAutomation.zoneId, zoneId)))[0]!;

const alertsOf = async (zoneId: string) =>
  (await t.db.select().from(alerts).where(eq(alerts.zoneId, zoneId))).map((a) => ({
    category: a.category,
    cause: a.cause,
  }));

const dysfunctions = async (zoneId: string) =>
  (
    await t.db
      .select()
      .from(alerts)
      .where(and(eq(alerts.zoneId, zoneId), eq(alerts.category, 'flowbox_dysfunction')))
  ).map((a) => ({ cause: a.cause, count: a.count, state: a.state }));

/** Premium: the no-closing and leak alerts are premium-only by default (docs/alerts.md). */
const makePremium = (zoneId: string) =>
  t.db.update(zones).set({ serviceLevel: 'premium' }).where(eq(zones.id, zoneId));

const settings = (overrides: Record<string, unknown> = {}) => ({
  automatic_closing_enabled: true,
  volume_margin_enabled: true,
  volume_margin: 100,
  duration_margin_enabled: true,
  duration_margin_minutes: 30,
  ...overrides,
});

async function ack(zone: Zone, commandId: string): Promise<void> {
  await zone.client.publishAsync(
    deviceTopic(zone.device.serial, 'acks'),
    encodePayload({
      v: PROTOCOL_VERSION,
      command_id: commandId,
      at: t.clock.now().toISOString(),
      result: 'done',
      reason: null,
    }),
    { qos: 1 },
  );
}

describe('settings', () => {
  it('are off by default and saved with the volume in the building unit, in the activity log', async () => {
    const zone = await zoneWithDevice('Settings zone');
    const before = await cmA.get(`${zone.path}/automation/info`);
    expect(before.json()).toMatchObject({
      automatic_closing_enabled: false,
      locked: false,
      volume_unit: 'liter',
    });
    const saved = await cmA.put(`${zone.path}/automation/update`, settings({ volume_margin: 250.5 }));
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ volume_margin: 250.5, duration_margin_minutes: 30 });
    const logged = await t.db
      .select()
      .from(events)
      .where(and(eq(events.zoneId, zone.id), eq(events.actionName, 'automatic_closing_updated')));
    expect(logged).toHaveLength(1);
    expect(logged[0]!.changedFields).toContain('automatic_closing_enabled');
  });

  it('refuse a volume margin outside its bounds in the unit and automatic closing without a margin', async () => {
    const zone = await zoneWithDevice('Bounds zone');
    const low = await cmA.put(`${zone.path}/automation/update`, settings({ volume_margin: 5 }));
    expect(low.statusCode).toBe(400);
    expect(low.json().details).toEqual([{ path: 'volume_margin', message: 'Must be between 10 and 100000' }]);
    const none = await cmA.put(
      `${zone.path}/automation/update`,
      settings({ volume_margin_enabled: false, duration_margin_enabled: false }),
    );
    expect(none.statusCode).toBe(400);
    expect(none.json().details[0].message).toBe(
      'Automatic closing needs at least one margin: volume or duration',
    );
    // Nothing was saved: the zone has no automation row, or one still off.
    expect((await automationOf(zone.id))?.automaticClosingEnabled ?? false).toBe(false);
  });
});

describe('a burst pipe', () => {
  let zone: Zone;
  let closes: { id: string }[];
  let waterPointId: string;
  let scheduleId: string;
  let planId: string;

  beforeAll(async () => {
    zone = await zoneWithDevice('Burst zone', { scheduled_closing_authorised: true });
    closes = closesReceived(zone.client);
    expect((await cmA.put(`${zone.path}/automation/update`, settings())).statusCode).toBe(200);
    // Things the lock must protect too: a water point, a schedule, a plan to subscribe to.
    const point = await cmA.post(`${zone.path}/water_points/create`, { label: 'Kitchen sink', type: 'sink' });
    waterPointId = point.json().id;
    const schedule = await cmA.post(`${zone.path}/schedules/create`, scheduleBody());
    expect(schedule.statusCode, schedule.body).toBe(201);
    scheduleId = schedule.json().id;
    const [plan] = await t.db
      .insert(pricingPlans)
      .values({ name: 'Lock plan', regions: ['FR'] })
      .returning();
    planId = plan!.id;
  });

  it('closes the valve at the reading past the volume margin and locks the zone', async () => {
    await minuteOf(zone, 40);
    await minuteOf(zone, 40);
    await until(async () => (await automationOf(zone.id)).eventVolumeMl === 80_000);
    expect(closes).toEqual([]);
    await minuteOf(zone, 40);
    await until(() => closes.length === 1);
    const info = (await cmA.get(`${zone.path}/automation/info`)).json();
    expect(info).toMatchObject({ locked: true, locked_by: 'volume', close_confirmed_at: null });
    const [triggered] = await t.db
      .select()
      .from(events)
      .where(and(eq(events.zoneId, zone.id), eq(events.actionName, 'automatic_closing_triggered')));
    expect(triggered).toMatchObject({ origin: 'system', changedFields: ['volume'] });
    expect(await alertsOf(zone.id)).toEqual([
      { category: 'abnormal_water_consumption_with_ac', cause: 'automatic_closing' },
    ]);
    // The alert keeps the margin it went past, for its sentence (alertDetailsText).
    const [alert] = await t.db.select().from(alerts).where(eq(alerts.zoneId, zone.id));
    expect(alert!.details).toMatchObject({
      trigger: 'volume',
      volume_l: 120,
      margin_volume_l: 100,
      margin_minutes: 30,
    });
  });

  it('is confirmed once the device acknowledges the close', async () => {
    await ack(zone, closes[0]!.id);
    await until(async () => {
      await t.services.automation.superviseSafetyCloses();
      return (await automationOf(zone.id)).closeConfirmedAt !== null;
    });
    expect((await automationOf(zone.id)).closeDysfunctionRaised).toBe(false);
  });

  it('emails the closing alert to the customer manager, once', async () => {
    await t.services.alertNotifier.runDue();
    await t.services.alertNotifier.runDue();
    const sent = await t.db.select().from(emails).where(eq(emails.kind, 'alert'));
    const ofZone = sent.filter((e) => e.text.includes(zone.name) && e.to === 'cm.a@test.io');
    expect(ofZone).toHaveLength(1);
  });

  it('answers "No action allowed" to every action on the zone, in English and French', async () => {
    const [flowbox] = (await cmA.get(`${zone.path}/flowboxes/list`)).json().items;
    // A code that does not exist: the lock answers before anything is looked up.
    const codeId = '00000000-0000-4000-8000-000000000000';
    const ids = { flowboxId: flowbox.id, waterPointId, scheduleId, zoneId: zone.id, codeId };
    // A valid body for each: the lock, not validation, must be what refuses the action.
    const schedule = {
      label: 'Nightly',
      date_start: '2026-01-01',
      date_end: '2026-12-31',
      closing_time: '22:00',
      opening_time: '06:00',
      recurring: true,
      frequency: 'daily',
      interval: 1,
    };
    const bodies: Record<string, unknown> = {
      'put /update': { occupants: 2 },
      'delete /delete': { confirm_name: zone.name },
      'post /water_points/create': { label: 'Sink', type: 'sink' },
      'put /water_points/{waterPointId}/update': { label: 'Basin' },
      'delete /water_points/{waterPointId}/delete': { confirm_name: 'Kitchen sink' },
      'post /flowboxes/pair': { serial: 'FB-LOCKED-1', factory_secret: 'x'.repeat(43) },
      'post /flowboxes/{flowboxId}/validate': {},
      'post /flowboxes/{flowboxId}/refuse': {},
      'post /flowboxes/{flowboxId}/unpair': {},
      'delete /flowboxes/{flowboxId}/detach': { confirm_name: zone.device.serial },
      'post /flowboxes/{flowboxId}/commands/send': { name: 'valve_open' },
      'put /subscription/update': { pricing_plan_id: planId, service_level: 'premium' },
      'post /schedules/create': schedule,
      'put /schedules/{scheduleId}/update': schedule,
      'delete /schedules/{scheduleId}/delete': { confirm_name: 'Nightly' },
      'put /automation/update': settings({ automatic_closing_enabled: false }),
      'post /flowboxes/{flowboxId}/firmware': { image_id: '00000000-0000-4000-8000-000000000000' },
      'post /claim_codes/create': { expires_in_days: 7 },
      'post /claim_codes/{codeId}/revoke': {},
      'put /away_mode/update': {
        from_date: '2030-01-01',
        from_time: '08:00',
        until_date: '2030-01-08',
        until_time: '20:00',
        close_on_flow: false,
      },
      'post /away_mode/clear': {},
    };
    // A firmware update says why in its own words (docs/firmware.md), still a 409 that changes nothing.
    const ownMessage: Record<string, MessageKey> = {
      'post /flowboxes/{flowboxId}/firmware': 'errors.firmware_zone_locked',
    };
    // Every change the API offers under a zone (its OpenAPI document), but the exit and the
    // backtest, which changes nothing and answers a locked zone as any other.
    const backtest = await cmA.post(`${zone.path}/automation/backtest`, { days: 1 });
    expect(backtest.statusCode, backtest.body).toBe(200);
    const doc = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const zoneActions = Object.entries(doc.paths).flatMap(([route, operations]) => {
      const at = route.indexOf('/zones/{zoneId}');
      if (at < 0) return [];
      const suffix = route.slice(at + '/zones/{zoneId}'.length);
      return Object.keys(operations)
        .filter(
          (method) => method !== 'get' && suffix !== '/automation/exit' && suffix !== '/automation/backtest',
        )
        .map((method) => `${method} ${suffix}`);
    });
    expect(zoneActions.sort()).toEqual(Object.keys(bodies).sort());
    const fr = await loginAs(t.app, 'cm.a@test.io', 'fr');
    for (const action of zoneActions) {
      const [method, suffix] = action.split(' ') as ['post' | 'put' | 'delete', string];
      const url = `${zone.path}${suffix.replace(/\{(\w+)\}/g, (_, name: keyof typeof ids) => ids[name])}`;
      const own = ownMessage[action];
      for (const [client, message] of [
        [cmA, own ? translate(own, 'en') : 'No action allowed'],
        [fr, own ? translate(own, 'fr') : 'Aucune action autorisée'],
      ] as const) {
        const res = await client.request(
          method.toUpperCase() as Uppercase<typeof method>,
          url,
          bodies[action],
        );
        expect(res.statusCode, `${action}: ${res.body}`).toBe(409);
        expect(res.json().message, action).toBe(message);
      }
    }
    expect((await cmA.get(`${zone.path}/info`)).statusCode).toBe(200);
  });

  it(
    'is exited only with the zone name typed, then detection rests for an hour',
    { timeout: 120_000 },
    async () => {
      const wrong = await cmA.post(`${zone.path}/automation/exit`, { confirm_name: 'Burst' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().message).toBe("Both names don't match");
      expect((await automationOf(zone.id)).lockedAt).not.toBeNull();
      const exitAt = t.clock.now().getTime();
      // Typed as a person types it: another case and spaces still name the zone (issue 30 item 18).
      const typed = `  ${zone.name.toUpperCase().replace(/ /g, '  ')} `;
      const exited = await cmA.post(`${zone.path}/automation/exit`, { confirm_name: typed });
      expect(exited.statusCode, exited.body).toBe(200);
      expect(exited.json().locked).toBe(false);
      const blockedFor = Date.parse(exited.json().detection_blocked_until) - exitAt;
      expect(blockedFor).toBeGreaterThanOrEqual(EXIT_BLOCK_S * 1000);
      expect(blockedFor).toBeLessThan(EXIT_BLOCK_S * 1000 + 5000);
      const again = await cmA.post(`${zone.path}/automation/exit`, { confirm_name: zone.name });
      expect(again.statusCode).toBe(409);
      // The burst goes on for most of the hour: no closing, however much flows.
      for (let i = 0; i < 55; i++) await minuteOf(zone, 40);
      await until(async () => (await automationOf(zone.id)).eventVolumeMl === 55 * 40_000);
      expect(closes).toHaveLength(1);
      expect((await automationOf(zone.id)).lockedAt).toBeNull();
      // Past the hour, the same flowing water closes the zone again.
      for (let i = 0; i < 6; i++) await minuteOf(zone, 40);
      await until(() => closes.length === 2);
      expect((await automationOf(zone.id)).lockedAt).not.toBeNull();
    },
  );
});

describe('without automatic closing, in maintenance, and a running toilet', () => {
  it('detection without automatic closing raises its alert, no closing and no lock', async () => {
    const zone = await zoneWithDevice('Alert only zone');
    await makePremium(zone.id);
    const closes = closesReceived(zone.client);
    await cmA.put(`${zone.path}/automation/update`, settings({ automatic_closing_enabled: false }));
    for (let i = 0; i < 4; i++) await minuteOf(zone, 40);
    await until(async () => (await automationOf(zone.id)).eventTriggered);
    expect(closes).toEqual([]);
    expect((await automationOf(zone.id)).lockedAt).toBeNull();
    expect(await alertsOf(zone.id)).toEqual([
      { category: 'abnormal_water_consumption_no_ac', cause: 'abnormal_consumption' },
    ]);
  });

  it('maintenance mode keeps the water open', async () => {
    const zone = await zoneWithDevice('Maintenance zone', { maintenance_mode: true });
    const closes = closesReceived(zone.client);
    await cmA.put(`${zone.path}/automation/update`, settings());
    for (let i = 0; i < 4; i++) await minuteOf(zone, 40);
    await until(async () => (await automationOf(zone.id)).eventTriggered);
    expect(closes).toEqual([]);
    expect((await automationOf(zone.id)).lockedAt).toBeNull();
  });

  it('in leak-detection mode any flow is a leak, and it closes nothing', async () => {
    const zone = await zoneWithDevice('Leak mode zone', { leak_detection_mode: true });
    await makePremium(zone.id);
    const closes = closesReceived(zone.client);
    await minuteOf(zone, 0);
    await minuteOf(zone, 0.2);
    await until(async () => (await alertsOf(zone.id)).length > 0);
    expect(await alertsOf(zone.id)).toEqual([
      { category: 'leakage_detection', cause: 'leak_detection_mode' },
    ]);
    expect(closes).toEqual([]);
  });

  it('a running toilet flowing for two hours is a leak, once', { timeout: 120_000 }, async () => {
    const zone = await zoneWithDevice('Toilet zone');
    for (let i = 0; i < 121; i++) await minuteOf(zone, 0.6);
    await until(async () => (await automationOf(zone.id)).eventFlowS === 121 * 60);
    expect((await automationOf(zone.id)).eventLeakRaised).toBe(true);
  });
});

describe('overlapping batches', () => {
  it("send a batch's safety close when it commits, even after another batch's after-commit step", async () => {
    const zone = await zoneWithDevice('Overlap zone');
    const closes = closesReceived(zone.client);
    expect((await cmA.put(`${zone.path}/automation/update`, settings())).statusCode).toBe(200);
    const listener = t.services.automation.listener();
    const crossing = [
      {
        zoneId: zone.id,
        flowboxId: zone.device.flowboxId,
        measuredAt: t.clock.now(),
        placedAt: t.clock.now(),
        intervalS: 60,
        volumeMl: 150_000,
        flowS: 60,
      },
    ];
    await t.db.transaction(async (tx) => {
      await listener.inTransaction(tx, crossing);
      // Another batch commits meanwhile, and its after-commit step runs before this one commits.
      await listener.afterCommit([]);
    });
    expect(closes).toEqual([]);
    await listener.afterCommit(crossing);
    await until(() => closes.length === 1);
  });
});

describe('a device offline when the zone closes', () => {
  it('gets the close re-sent on reconnection, with a fresh one after expiry; unconfirmed is a dysfunction', async () => {
    const zone = await zoneWithDevice('Offline zone');
    await cmA.put(
      `${zone.path}/automation/update`,
      settings({ volume_margin_enabled: false, duration_margin_minutes: 5 }),
    );
    for (let i = 0; i < 5; i++) await minuteOf(zone, 1);
    // The device drops off the network just as its last reading goes out.
    await zone.client.endAsync(true);
    const offline = await mqtt.connectAsync(`mqtt://127.0.0.1:${messaging.port}`, {
      username: zone.device.serial,
      password: zone.device.password,
      clientId: zone.device.serial,
      reconnectPeriod: 0,
    });
    clients.push(offline);
    zone.seq += 1;
    await offline.publishAsync(
      deviceTopic(zone.device.serial, 'telemetry'),
      encodePayload({ ...reading(zone.seq, t.clock.now(), 1), flow_s: 60 }),
      { qos: 1 },
    );
    await offline.endAsync(true);
    await until(async () => (await automationOf(zone.id)).lockedAt !== null);

    t.clock.advance(SAFETY_CONFIRM_S * 1000);
    await t.services.automation.superviseSafetyCloses();
    expect((await automationOf(zone.id)).closeDysfunctionRaised).toBe(true);
    const cause = `valve_unconfirmed:${zone.device.flowboxId}`;
    expect(await dysfunctions(zone.id)).toEqual([{ cause, count: 1, state: 'open' }]);

    // Past its expiry the first close is dropped and a fresh one takes over.
    t.clock.advance(SAFETY_CLOSE_TTL_S * 1000);
    await until(async () => {
      const rows = await t.db
        .select()
        .from(deviceCommands)
        .where(eq(deviceCommands.flowboxId, zone.device.flowboxId));
      return rows.some((r) => r.status === 'expired');
    });
    await t.services.automation.superviseSafetyCloses();
    // Sent by this pass, or by the command job's if it held the row at that moment (SKIP LOCKED).
    const sentCloses = () =>
      t.db
        .select()
        .from(deviceCommands)
        .where(and(eq(deviceCommands.flowboxId, zone.device.flowboxId), eq(deviceCommands.status, 'sent')));
    const open = await until(async () => {
      const rows = await sentCloses();
      return rows.length > 0 && rows;
    });
    expect(open).toHaveLength(1);
    // The expiry is the same cause as the supervision's alert: counted, not a second alert.
    expect(await dysfunctions(zone.id)).toEqual([{ cause, count: 2, state: 'open' }]);
    // The fresh close expires too: still one alert.
    t.clock.advance(SAFETY_CLOSE_TTL_S * 1000);
    await until(async () => (await dysfunctions(zone.id))[0]?.count === 3);
    await t.services.automation.superviseSafetyCloses();
    expect(await dysfunctions(zone.id)).toEqual([{ cause, count: 3, state: 'open' }]);
    const [fresh] = await until(async () => {
      const rows = await sentCloses();
      return rows.length > 0 && rows;
    });

    const back = await connect(zone.device);
    const closes = closesReceived(back);
    t.clock.advance(10_000);
    await until(() => closes.length > 0);
    expect(closes[0]!.id).toBe(fresh!.id);
    // Carried out at last: the zone is confirmed and the device's dysfunction is over.
    zone.client = back;
    await ack(zone, fresh!.id);
    await until(async () => {
      await t.services.automation.superviseSafetyCloses();
      return (await automationOf(zone.id)).closeConfirmedAt !== null;
    });
    expect(await dysfunctions(zone.id)).toEqual([{ cause, count: 3, state: 'resolved' }]);
  });

  it('an exit before the device answered withdraws the close without a dysfunction alert', async () => {
    const zone = await zoneWithDevice('Withdrawn zone');
    const closes = closesReceived(zone.client);
    await cmA.put(`${zone.path}/automation/update`, settings());
    for (let i = 0; i < 3; i++) await minuteOf(zone, 40);
    await until(() => closes.length === 1);
    const exited = await cmA.post(`${zone.path}/automation/exit`, { confirm_name: zone.name });
    expect(exited.statusCode, exited.body).toBe(200);
    t.clock.advance(SAFETY_CLOSE_TTL_S * 1000);
    await t.services.commands.dispatchDue();
    await t.services.automation.superviseSafetyCloses();
    const [command] = await t.db
      .select()
      .from(deviceCommands)
      .where(eq(deviceCommands.flowboxId, zone.device.flowboxId));
    expect(command).toMatchObject({ status: 'expired', result: { reason: 'automatic_closing_exited' } });
    expect(await dysfunctions(zone.id)).toEqual([]);
    const [logged] = await t.db
      .select()
      .from(events)
      .where(and(eq(events.zoneId, zone.id), eq(events.actionName, 'command_expired')));
    expect(logged!.changedFields).toEqual(['valve_close', 'automatic_closing_exited']);
  });
});
