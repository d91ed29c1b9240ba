import {
  deviceTopic,
  encodePayload,
  localDateTime,
  PROTOCOL_VERSION,
  ROLES,
  translate,
} from '@flowbox/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts, deviceCommands, events, users, zoneAutomation, zones } from '../db/schema.ts';
import { FlowboxIngest } from '../flowboxes/ingest.service.ts';
import { pairDirectly, reading, type PairedDevice } from '../telemetry/testing.ts';
import { TelemetryWriter } from '../telemetry/writer.ts';
import {
  buildingBody,
  createTestApp,
  createUser,
  createWorld,
  loginAs,
  zoneBody,
  type ApiClient,
  type TestApp,
  type World,
} from '../test/harness.ts';
import { AWAY_FLOW_CAUSE } from './away-mode.ts';

/*
 * Away mode end to end (issue 33, docs/automation.md "Away mode"): set by a resident or a manager
 * in the building's time zone, judged on the readings that go through the real ingest (parse,
 * placement, the telemetry batch, detection's transaction): any water while away opens the away
 * alert, and with close_on_flow the water closes once, through automatic closing's safety close.
 */

const TIMEZONE = 'Europe/Paris';
const MIN = 60_000;

let t: TestApp;
let w: World;
let cmA: ApiClient;
let resident: ApiClient;
let residentGranted: ApiClient;
let writer: TelemetryWriter;
let ingest: FlowboxIngest;
let buildingPath: string;
const encoder = new TextEncoder();

type Zone = { id: string; path: string; device: PairedDevice; seq: number };

beforeAll(async () => {
  t = await createTestApp({ accessTokenTtl: 30 * 86400 });
  w = await createWorld(t.db);
  cmA = await loginAs(t.app, 'cm.a@test.io');
  const site = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
  const building = await cmA.post(
    `${site}/buildings/create`,
    buildingBody({ volume_unit: 'liter', timezone: TIMEZONE }),
  );
  expect(building.statusCode, building.body).toBe(201);
  buildingPath = `${site}/buildings/${building.json().id}`;
  const log = { warn: () => undefined, error: () => undefined };
  writer = new TelemetryWriter(t.services.context, t.services.telemetry, log);
  ingest = new FlowboxIngest(t.services.context, t.services.flowboxes, t.services.commands, log, 180, writer);
});
afterAll(async () => {
  await writer.close();
  await t.close();
});

let zones_ = 0;
/** A premium zone (leak alerts are premium by default), or a basic one, with a paired flowbox. */
async function homeZone(serviceLevel: 'premium' | 'basic' = 'premium'): Promise<Zone> {
  const created = await cmA.post(
    `${buildingPath}/zones/create`,
    zoneBody({ name: `Flat ${++zones_}`, profile: 'housing' }),
  );
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  await t.db.update(zones).set({ serviceLevel }).where(eq(zones.id, id));
  const device = await pairDirectly(t.db, {
    customerId: w.customers.a.id,
    siteId: w.sites.a1.id,
    buildingId: created.json().building_id,
    zoneId: id,
  });
  return { id, path: `${buildingPath}/zones/${id}`, device, seq: 0 };
}

/** Two residents of the zone: one as registered (no permission), one its manager let close the valve. */
async function residentsOf(zone: Zone): Promise<void> {
  const n = zones_;
  await createUser(t.db, {
    email: `resident${n}@test.io`,
    role: ROLES.end_user,
    customerId: w.customers.a.id,
    zoneIds: [zone.id],
    firstname: 'Rita',
    lastname: 'Resident',
  });
  const granted = await createUser(t.db, {
    email: `resident${n}.valve@test.io`,
    role: ROLES.end_user,
    customerId: w.customers.a.id,
    zoneIds: [zone.id],
    firstname: 'Vic',
    lastname: 'Valve',
  });
  await t.db
    .update(users)
    .set({ permissions: { 'valves.control': 'authorised' } })
    .where(eq(users.id, granted.id));
  resident = await loginAs(t.app, `resident${n}@test.io`);
  residentGranted = await loginAs(t.app, `resident${n}.valve@test.io`);
}

/** A reading of `liters` ending at `at` (now by default), sent now: a live one, or a late one. */
async function send(zone: Zone, liters: number, at = new Date(t.clock.now().getTime() - 1000), seq?: number) {
  const n = seq ?? ++zone.seq;
  const message = { ...reading(n, at, liters), sent_at: t.clock.now().toISOString() };
  await ingest.handle(deviceTopic(zone.device.serial, 'telemetry'), encoder.encode(encodePayload(message)));
  await writer.flush();
}

/** The clock moves a minute on and the device reports that minute's water. */
async function minute(zone: Zone, liters: number): Promise<void> {
  t.clock.advance(MIN);
  await send(zone, liters);
}

/** A period as the building's clock reads it, from `fromMs` to `untilMs` (instants). */
function period(fromMs: number, untilMs: number, closeOnFlow = false) {
  const [fromDate, fromTime] = localDateTime(fromMs, TIMEZONE).split('T');
  const [untilDate, untilTime] = localDateTime(untilMs, TIMEZONE).split('T');
  return {
    from_date: fromDate,
    from_time: fromTime,
    until_date: untilDate,
    until_time: untilTime,
    close_on_flow: closeOnFlow,
  };
}

/** The next whole minute from now plus `minutes`: local times are to the minute. */
const minuteFromNow = (minutes: number) => Math.ceil(t.clock.now().getTime() / MIN) * MIN + minutes * MIN;

/** Within a few seconds of the test clock, which runs with real time between its steps. */
const near = (at: Date | null) => at !== null && Math.abs(at.getTime() - t.clock.now().getTime()) < 10_000;

const awayAlerts = (zoneId: string) =>
  t.db
    .select()
    .from(alerts)
    .where(and(eq(alerts.zoneId, zoneId), eq(alerts.cause, AWAY_FLOW_CAUSE)));
const closes = (zone: Zone) =>
  t.db
    .select()
    .from(deviceCommands)
    .where(and(eq(deviceCommands.flowboxId, zone.device.flowboxId), eq(deviceCommands.name, 'valve_close')));
const logged = (zoneId: string, action: string) =>
  t.db
    .select()
    .from(events)
    .where(and(eq(events.zoneId, zoneId), eq(events.actionName, action)));

describe('setting away mode', () => {
  let zone: Zone;
  beforeAll(async () => {
    zone = await homeZone();
    await residentsOf(zone);
  });

  it('a resident sets a period in the building’s time zone; it is read back and logged with their name', async () => {
    const from = minuteFromNow(60);
    const until = from + 3 * 86_400_000;
    const res = await resident.put(`${zone.path}/away_mode/update`, period(from, until));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      state: 'scheduled',
      from: new Date(from).toISOString(),
      until: new Date(until).toISOString(),
      from_local: localDateTime(from, TIMEZONE),
      timezone: TIMEZONE,
      close_on_flow: false,
      set_by: 'Rita Resident',
    });
    expect((await resident.get(`${zone.path}/away_mode/info`)).json()).toEqual(res.json());
    const [line] = await logged(zone.id, 'away_mode_set');
    expect(line).toMatchObject({ userName: 'Rita Resident', origin: 'web', objectName: 'zone' });
  });

  it('a resident without the valve permission may not choose to close the water; one with it may', async () => {
    const body = period(minuteFromNow(1), minuteFromNow(120), true);
    const refused = await resident.put(`${zone.path}/away_mode/update`, body);
    expect(refused.statusCode).toBe(403);
    const done = await residentGranted.put(`${zone.path}/away_mode/update`, body);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ close_on_flow: true, set_by: 'Vic Valve' });
  });

  it('refuses a period that ends before it starts or has already ended, in the caller’s language', async () => {
    const backwards = await cmA.put(
      `${zone.path}/away_mode/update`,
      period(minuteFromNow(60), minuteFromNow(30)),
    );
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().details).toEqual([
      { path: 'until_date', message: translate('validation.end_after_start', 'en') },
    ]);
    const past = await cmA.put(
      `${zone.path}/away_mode/update`,
      period(minuteFromNow(-300), minuteFromNow(-60)),
    );
    expect(past.statusCode).toBe(400);
    expect(past.json().details).toEqual([
      { path: 'until_date', message: translate('validation.end_in_future', 'en') },
    ]);
  });

  it('a manager switches it off; the log says who', async () => {
    const res = await cmA.post(`${zone.path}/away_mode/clear`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ state: 'off', from: null, until: null, close_on_flow: false });
    const [line] = await logged(zone.id, 'away_mode_cleared');
    expect(line).toMatchObject({ userName: 'Cara Amanager', origin: 'web' });
  });
});

describe('water while away (readings through ingest)', () => {
  it('any water while away opens one away alert, in the residents’ words; no water, no alert; none before or after', async () => {
    const zone = await homeZone();
    await residentsOf(zone);
    const from = minuteFromNow(2);
    const until = from + 30 * MIN;
    expect((await resident.put(`${zone.path}/away_mode/update`, period(from, until))).statusCode).toBe(200);
    await minute(zone, 3); // before the period
    expect(await awayAlerts(zone.id)).toEqual([]);
    t.clock.advance(from - t.clock.now().getTime());
    await minute(zone, 0);
    expect(await awayAlerts(zone.id)).toEqual([]);
    await minute(zone, 2);
    await minute(zone, 1);
    const [alert] = await awayAlerts(zone.id);
    expect(alert).toMatchObject({ category: 'leakage_detection', state: 'open', count: 2 });
    expect(alert!.details).toMatchObject({ closed: false, away_until: new Date(until).toISOString() });
    const listed = await resident.get(`/v1/alerts/list?zone_id=${zone.id}&state=active`);
    const item = listed.json().items.find((a: { cause: string }) => a.cause === AWAY_FLOW_CAUSE);
    expect(item.answers).toEqual([]);
    // Nothing closed: the resident did not ask for it.
    expect(await closes(zone)).toEqual([]);
    // After the period: water is no longer the away rule's business.
    t.clock.advance(until - t.clock.now().getTime());
    await minute(zone, 5);
    expect((await awayAlerts(zone.id))[0]!.count).toBe(2);
  });

  it('with close_on_flow, the first fresh flow while away closes the water once, through the safety close', async () => {
    const zone = await homeZone();
    await residentsOf(zone);
    const from = minuteFromNow(1);
    const res = await residentGranted.put(
      `${zone.path}/away_mode/update`,
      period(from, from + 60 * MIN, true),
    );
    expect(res.statusCode, res.body).toBe(200);
    t.clock.advance(from - t.clock.now().getTime());
    await minute(zone, 1);
    const sent = await closes(zone);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ origin: 'system', status: expect.stringMatching(/pending|sent/) });
    const [row] = await t.db.select().from(zoneAutomation).where(eq(zoneAutomation.zoneId, zone.id));
    expect(near(row!.awayClosedAt)).toBe(true);
    // No lock: away mode is not automatic closing, the resident opens the water as usual.
    expect(row!.lockedAt).toBeNull();
    expect(await logged(zone.id, 'away_closing')).toHaveLength(1);
    expect((await awayAlerts(zone.id))[0]!.details).toMatchObject({ closed: true });
    // Water again (someone opened it from the app): an alert counts, no second closing.
    await minute(zone, 2);
    expect(await closes(zone)).toHaveLength(1);
    expect((await awayAlerts(zone.id))[0]).toMatchObject({
      count: 2,
      details: expect.objectContaining({ closed: true }),
    });
    const info = (await resident.get(`${zone.path}/away_mode/info`)).json();
    expect(info).toMatchObject({ state: 'away', closed_at: row!.awayClosedAt!.toISOString() });
  });

  it('readings that arrive late or out of order are judged on their own time: an alert, never a closing', async () => {
    const zone = await homeZone();
    await residentsOf(zone);
    const from = minuteFromNow(1);
    const until = from + 20 * MIN;
    expect(
      (await residentGranted.put(`${zone.path}/away_mode/update`, period(from, until, true))).statusCode,
    ).toBe(200);
    // The device is offline while away; its buffer arrives after the period, newest first.
    t.clock.advance(until + 10 * MIN - t.clock.now().getTime());
    await send(zone, 0, new Date(until + 5 * MIN), 4);
    await send(zone, 2, new Date(from + 6 * MIN), 3);
    await send(zone, 1, new Date(from + 5 * MIN), 2);
    await send(zone, 0, new Date(from - 5 * MIN), 1);
    zone.seq = 4;
    const [alert] = await awayAlerts(zone.id);
    expect(alert).toMatchObject({ category: 'leakage_detection', count: 2 });
    expect(await closes(zone)).toEqual([]);
    // While away, a stale reading (buffered, delivered past the freshness window) alerts but cannot close.
    const zone2 = await homeZone();
    await residentsOf(zone2);
    const from2 = minuteFromNow(1);
    await residentGranted.put(`${zone2.path}/away_mode/update`, period(from2, from2 + 120 * MIN, true));
    t.clock.advance(from2 + 60 * MIN - t.clock.now().getTime());
    await send(zone2, 1, new Date(from2 + 10 * MIN));
    expect(await awayAlerts(zone2.id)).toHaveLength(1);
    expect(await closes(zone2)).toEqual([]);
    // Then a fresh one: the water runs now, it closes.
    await minute(zone2, 1);
    expect(await closes(zone2)).toHaveLength(1);
  });

  it('on a basic zone too: the resident asked to be told, so water while away alerts (leak alerts stay premium)', async () => {
    const zone = await homeZone('basic');
    await residentsOf(zone);
    const from = minuteFromNow(1);
    expect(
      (await resident.put(`${zone.path}/away_mode/update`, period(from, from + 60 * MIN))).statusCode,
    ).toBe(200);
    t.clock.advance(from - t.clock.now().getTime());
    await minute(zone, 2);
    const [alert] = await awayAlerts(zone.id);
    expect(alert).toMatchObject({ category: 'leakage_detection', state: 'open', count: 1 });
    const listed = await resident.get(`/v1/alerts/list?zone_id=${zone.id}&state=active`);
    expect(listed.json().items.map((a: { cause: string }) => a.cause)).toEqual([AWAY_FLOW_CAUSE]);
    // Any other leak alert is still premium-only on this zone (spec §6): only the resident's request is told.
    const other = await t.db.transaction((tx) =>
      t.services.alerts.raise(tx, {
        category: 'leakage_detection',
        zoneId: zone.id,
        cause: 'continuous_flow',
        details: {},
      }),
    );
    expect(other).toEqual({ raised: false, reason: 'premium_only' });
  });

  it('switched off, water no longer alerts', async () => {
    const zone = await homeZone();
    await residentsOf(zone);
    const from = minuteFromNow(1);
    await resident.put(`${zone.path}/away_mode/update`, period(from, from + 60 * MIN));
    t.clock.advance(from - t.clock.now().getTime());
    expect((await resident.post(`${zone.path}/away_mode/clear`, {})).statusCode).toBe(200);
    await minute(zone, 3);
    expect(await awayAlerts(zone.id)).toEqual([]);
  });
});

describe('the water off, since when and by whom', () => {
  it('names the closing of the log: away mode’s, a person’s, by hand on the device', async () => {
    const zone = await homeZone();
    await residentsOf(zone);
    const water = async () => (await resident.get(`${zone.path}/water`)).json();
    expect(await water()).toMatchObject({ valve: 'opened', closed_since: null, closed_by: null });
    const from = minuteFromNow(1);
    await residentGranted.put(`${zone.path}/away_mode/update`, period(from, from + 60 * MIN, true));
    t.clock.advance(from - t.clock.now().getTime());
    await minute(zone, 1);
    // The device confirms the close: the command is done, the valve reported closed.
    const [close] = await closes(zone);
    await t.services.commands.acknowledge(zone.device.serial, {
      v: PROTOCOL_VERSION,
      command_id: close!.id,
      at: t.clock.now().toISOString(),
      result: 'done',
      reason: null,
    });
    await t.db.update(zones).set({ valveState: 'closed' }).where(eq(zones.id, zone.id));
    const closed = await water();
    expect(near(new Date(closed.closed_since))).toBe(true);
    expect(closed).toMatchObject({
      valve: 'closed',
      closed_by: 'away_mode',
      closed_by_name: null,
      timezone: TIMEZONE,
    });
  });
});
