import { PROTOCOL_VERSION } from '@flowbox/shared';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { deviceCommands, events, flowboxes, scheduleRuns, zoneAutomation } from '../db/schema.ts';
import {
  startMessaging,
  subscribe,
  TestDevice,
  newSecret,
  uniqueSerial,
  until,
} from '../flowboxes/testing.ts';
import {
  buildingBody,
  createWorldApp,
  loginAs,
  siteManagerWithout,
  testConfig,
  zoneBody,
  type ApiClient,
  type TestApp,
  type World,
} from '../test/harness.ts';
import type { ScheduleRunner } from './schedule-runner.ts';

let t: TestApp;
let w: World;
let cmA: ApiClient;
let smA: ApiClient;
let building: string;

beforeAll(async () => {
  ({ t, w, cmA, smA } = await createWorldApp());
  const site = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
  const res = await cmA.post(`${site}/buildings/create`, buildingBody({ timezone: 'Europe/Paris' }));
  building = `${site}/buildings/${res.json().id}`;
});
afterAll(() => t.close());

/** Moves the test clock to an instant (then it runs on in real time, by milliseconds). */
function setClock(iso: string): void {
  t.clock.advance(Date.parse(iso) - t.clock.now().getTime());
}

async function newZone(authorised = true): Promise<{ id: string; path: string }> {
  const res = await cmA.post(
    `${building}/zones/create`,
    zoneBody({ name: `Zone ${uniqueSerial('Z')}`, scheduled_closing_authorised: authorised }),
  );
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().id, path: `${building}/zones/${res.json().id}` };
}

/** A flowbox paired in the zone, written directly (these tests are about the job, not pairing). */
async function readyFlowbox(zoneId: string): Promise<string> {
  const [row] = await t.db
    .insert(flowboxes)
    .values({ serial: uniqueSerial(), zoneId, pairingState: 'ready', pairedAt: t.clock.now() })
    .returning();
  return row!.id;
}

const nightly = (overrides: Record<string, unknown> = {}) => ({
  label: 'Nightly closing',
  date_start: '2026-03-01',
  date_end: '2026-12-31',
  closing_time: '22:00',
  opening_time: '06:00',
  recurring: true,
  frequency: 'daily',
  interval: 1,
  ...overrides,
});

async function commandsOf(flowboxId: string) {
  const rows = await t.db
    .select()
    .from(deviceCommands)
    .where(eq(deviceCommands.flowboxId, flowboxId))
    .orderBy(asc(deviceCommands.issuedAt));
  return rows.map((c) => ({ name: c.name, origin: c.origin }));
}

async function zoneEvents(zoneId: string) {
  const rows = await t.db
    .select()
    .from(events)
    .where(and(eq(events.zoneId, zoneId), eq(events.objectName, 'schedule')))
    .orderBy(asc(events.createdAt));
  return rows.map((e) => ({ action: e.actionName, origin: e.origin, fields: e.changedFields }));
}

describe('scheduled closings: rules', () => {
  it('are refused where the zone does not allow scheduled closings, in EN and FR', async () => {
    const zone = await newZone(false);
    const en = await cmA.post(`${zone.path}/schedules/create`, nightly());
    expect(en.statusCode).toBe(409);
    expect(en.json()).toMatchObject({
      code: 'errors.scheduled_closing_not_authorised',
      message: expect.stringContaining('Scheduled closings are not authorised on this zone'),
    });
    const fr = await (
      await loginAs(t.app, 'cm.a@test.io', 'fr')
    ).post(`${zone.path}/schedules/create`, nightly());
    expect(fr.json().message).toContain('Les fermetures programmées ne sont pas autorisées');
    expect((await cmA.get(`${zone.path}/schedules/list`)).json()).toEqual({ items: [], total: 0 });
  });

  it('need an end date after the start date: "Should be posterior start date"', async () => {
    const zone = await newZone();
    const res = await cmA.post(`${zone.path}/schedules/create`, nightly({ date_end: '2026-02-01' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ path: 'date_end', message: 'Should be posterior start date' }]);
    const fr = await (
      await loginAs(t.app, 'cm.a@test.io', 'fr')
    ).post(`${zone.path}/schedules/create`, nightly({ date_end: '2026-03-01' }));
    expect(fr.json().details).toEqual([
      { path: 'date_end', message: 'Doit être postérieure à la date de début' },
    ]);
  });

  it('need a frequency when recurring, weekdays when weekly, an opening after the closing on a one-day closing', async () => {
    const zone = await newZone();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ frequency: null }, 'frequency', 'Please select an option'],
      [{ frequency: 'weekly', weekdays: [] }, 'weekdays', 'Please select an option'],
      [
        { recurring: false, date_end: '2026-03-01', closing_time: '14:00', opening_time: '12:00' },
        'opening_time',
        'The opening time must be after the closing time',
      ],
      [{ interval: 0 }, 'interval', 'Number must be greather or equal to 1'],
      [{ closing_time: '25:00' }, 'closing_time', 'Please enter a time as HH:mm, such as 08:30'],
    ];
    for (const [body, path, message] of cases) {
      const res = await cmA.post(`${zone.path}/schedules/create`, nightly(body));
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().details).toContainEqual({ path, message });
    }
    expect((await cmA.get(`${zone.path}/schedules/list`)).json().total).toBe(0);
  });
});

describe('scheduled closings: list, create, edit, delete', () => {
  it('are kept with their rule, logged in the activity log, and deleted with their label typed', async () => {
    const zone = await newZone();
    const created = await smA.post(
      `${zone.path}/schedules/create`,
      nightly({ frequency: 'weekly', weekdays: ['friday', 'monday'], label: 'Weekend' }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const schedule = created.json();
    expect(schedule).toMatchObject({
      zone_id: zone.id,
      label: 'Weekend',
      frequency: 'weekly',
      weekdays: ['friday', 'monday'],
      duration_minutes: 480,
      timezone: 'Europe/Paris',
    });
    const at = `${zone.path}/schedules/${schedule.id}`;
    expect((await cmA.get(`${at}/info`)).json()).toEqual(schedule);
    const updated = await cmA.put(
      `${at}/update`,
      nightly({
        frequency: 'weekly',
        weekdays: ['friday', 'monday'],
        label: 'Weekend',
        opening_time: '07:00',
      }),
    );
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ opening_time: '07:00', duration_minutes: 540 });
    expect((await cmA.get(`${zone.path}/schedules/list`)).json()).toMatchObject({ total: 1 });

    const wrong = await cmA.delete(`${at}/delete`, { confirm_name: 'Weekday' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe("Both names don't match");
    // Typed as a person types it: another case still names it (typedNameMatches).
    expect((await cmA.delete(`${at}/delete`, { confirm_name: 'weekend ' })).statusCode).toBe(204);
    expect((await cmA.get(`${at}/info`)).statusCode).toBe(404);
    expect(await zoneEvents(zone.id)).toEqual([
      { action: 'created', origin: 'web', fields: [] },
      { action: 'updated', origin: 'web', fields: ['opening_time'] },
      { action: 'deleted', origin: 'web', fields: [] },
    ]);
  });

  it('need schedules.manage to change, and stay readable without it', async () => {
    const zone = await newZone();
    const without = await siteManagerWithout(t, w, 'sm.noschedules@test.io', 'schedules.manage');
    expect((await without.post(`${zone.path}/schedules/create`, nightly())).statusCode).toBe(403);
    expect((await without.get(`${zone.path}/schedules/list`)).statusCode).toBe(200);
    expect((await without.get(`${zone.path}/schedules/occurrences`)).statusCode).toBe(200);
  });

  it('may not be changed while automatic closing locks the zone: "No action allowed"', async () => {
    const zone = await newZone();
    const id = (await cmA.post(`${zone.path}/schedules/create`, nightly())).json().id as string;
    await t.db.insert(zoneAutomation).values({ zoneId: zone.id, lockedAt: t.clock.now() });
    const res = await cmA.put(`${zone.path}/schedules/${id}/update`, nightly({ label: 'Other' }));
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('No action allowed');
    const del = await cmA.delete(`${zone.path}/schedules/${id}/delete`, { confirm_name: 'Nightly closing' });
    expect(del.json().code).toBe('errors.no_action_allowed');
  });
});

describe('next occurrences', () => {
  it('lists the next windows of every schedule in local time, the running one first', async () => {
    const zone = await newZone();
    await cmA.post(`${zone.path}/schedules/create`, nightly());
    await cmA.post(
      `${zone.path}/schedules/create`,
      nightly({
        label: 'Saturday',
        frequency: 'weekly',
        weekdays: ['saturday'],
        closing_time: '12:00',
        opening_time: '14:00',
      }),
    );
    setClock('2026-03-26T23:30:00Z'); // Friday 00:30 in Paris: the Thursday night window runs
    const res = await cmA.get(`${zone.path}/schedules/occurrences?limit=5`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.timezone).toBe('Europe/Paris');
    expect(body.scheduled_closing_authorised).toBe(true);
    expect(
      body.items.map((o: Record<string, string>) => [o.label, o.local_start, o.local_end, o.status]),
    ).toEqual([
      ['Nightly closing', '2026-03-26T22:00', '2026-03-27T06:00', 'running'],
      ['Nightly closing', '2026-03-27T22:00', '2026-03-28T06:00', 'upcoming'],
      ['Saturday', '2026-03-28T12:00', '2026-03-28T14:00', 'upcoming'],
      ['Nightly closing', '2026-03-28T22:00', '2026-03-29T06:00', 'upcoming'],
      ['Nightly closing', '2026-03-29T22:00', '2026-03-30T06:00', 'upcoming'],
    ]);
    expect(body.items[3].end).toBe('2026-03-29T04:00:00.000Z'); // a 7-hour night: clocks go forward
    expect((await cmA.get(`${zone.path}/schedules/occurrences?limit=0`)).statusCode).toBe(400);
  });
});

/**
 * Another app on the same database and clock, sharing the first one's connection pool: no path
 * takes a second connection while holding one (docs/decisions.md "One connection per operation"),
 * so two instances on one pool of ten do not stall, and the test database's connection guard
 * watches both.
 */
async function secondInstance(): Promise<{ runner: ScheduleRunner; close: () => Promise<void> }> {
  const { app, services } = await buildApp({
    config: testConfig(),
    db: t.db,
    now: t.clock.now,
    logger: false,
  });
  await app.ready();
  return { runner: services.scheduleRunner, close: () => app.close() };
}

describe('the scheduled-closing job', () => {
  it('closes at the start and opens at the end, each once, with two instances passing together', async () => {
    const zone = await newZone();
    const flowbox = await readyFlowbox(zone.id);
    await cmA.post(
      `${zone.path}/schedules/create`,
      nightly({ date_start: '2026-04-01', date_end: '2026-04-03' }),
    );
    const second = await secondInstance();
    const both = () => Promise.all([t.services.scheduleRunner.runDue(), second.runner.runDue()]);
    try {
      setClock('2026-04-01T19:59:00Z'); // 21:59 in Paris: not yet
      await both();
      expect(await commandsOf(flowbox)).toEqual([]);
      for (const at of ['2026-04-01T20:00:05Z', '2026-04-01T20:00:20Z', '2026-04-02T03:59:00Z']) {
        setClock(at);
        await both();
        await both();
      }
      expect(await commandsOf(flowbox)).toEqual([{ name: 'valve_close', origin: 'system' }]);
      for (const at of ['2026-04-02T04:00:05Z', '2026-04-02T04:00:20Z', '2026-04-02T10:00:00Z']) {
        setClock(at);
        await both();
      }
      expect(await commandsOf(flowbox)).toEqual([
        { name: 'valve_close', origin: 'system' },
        { name: 'valve_open', origin: 'system' },
      ]);
      expect(await zoneEvents(zone.id)).toEqual([
        { action: 'created', origin: 'web', fields: [] },
        { action: 'scheduled_closing_started', origin: 'system', fields: [] },
        { action: 'scheduled_closing_ended', origin: 'system', fields: [] },
      ]);
    } finally {
      await second.close();
    }
  });

  it('after a restart in the middle of a window, opens at its end exactly once', async () => {
    const zone = await newZone();
    const flowbox = await readyFlowbox(zone.id);
    await cmA.post(
      `${zone.path}/schedules/create`,
      nightly({
        date_start: '2026-05-01',
        date_end: '2026-05-01',
        recurring: false,
        closing_time: '10:00',
        opening_time: '11:00',
      }),
    );
    const before = await secondInstance();
    setClock('2026-05-01T08:00:30Z'); // 10:00 in Paris
    expect(await before.runner.runDue()).toEqual({ closed: 1, opened: 0 });
    await before.close(); // the instance that closed stops

    const after = await secondInstance(); // and another starts
    try {
      setClock('2026-05-01T08:30:00Z');
      expect(await after.runner.runDue()).toEqual({ closed: 0, opened: 0 });
      setClock('2026-05-01T09:00:10Z');
      expect(await after.runner.runDue()).toEqual({ closed: 0, opened: 1 });
      expect(await after.runner.runDue()).toEqual({ closed: 0, opened: 0 });
      expect(await t.services.scheduleRunner.runDue()).toEqual({ closed: 0, opened: 0 });
      expect((await commandsOf(flowbox)).map((c) => c.name)).toEqual(['valve_close', 'valve_open']);
    } finally {
      await after.close();
    }
  });

  it('closes late a window still running after downtime, and never replays one fully in the past', async () => {
    const zone = await newZone();
    const flowbox = await readyFlowbox(zone.id);
    await cmA.post(
      `${zone.path}/schedules/create`,
      nightly({ date_start: '2026-06-01', date_end: '2026-06-05' }),
    );
    const names = async () => (await commandsOf(flowbox)).map((c) => c.name);
    setClock('2026-06-02T12:00:00Z'); // the night of 1 June came and went while nothing ran
    await t.services.scheduleRunner.runDue();
    expect(await names()).toEqual([]);
    setClock('2026-06-03T01:00:00Z'); // 03:00 in Paris, the night of 2 June still runs: close late
    await t.services.scheduleRunner.runDue();
    expect(await names()).toEqual(['valve_close']);
    const [run] = await t.db.select().from(scheduleRuns).where(eq(scheduleRuns.zoneId, zone.id));
    expect(run!.occurrenceStart.toISOString()).toBe('2026-06-02T20:00:00.000Z');
    setClock('2026-06-04T12:00:00Z'); // down again across the night of 3 June
    await t.services.scheduleRunner.runDue();
    expect(await names()).toEqual(['valve_close', 'valve_open']);
  });

  it('never opens a zone locked by automatic closing; records why', async () => {
    const zone = await newZone();
    const flowbox = await readyFlowbox(zone.id);
    await cmA.post(
      `${zone.path}/schedules/create`,
      nightly({
        date_start: '2026-07-01',
        date_end: '2026-07-01',
        recurring: false,
        closing_time: '10:00',
        opening_time: '11:00',
      }),
    );
    setClock('2026-07-01T08:10:00Z');
    await t.services.scheduleRunner.runDue();
    await t.db.insert(zoneAutomation).values({ zoneId: zone.id, lockedAt: t.clock.now() });
    setClock('2026-07-01T09:10:00Z');
    expect(await t.services.scheduleRunner.runDue()).toEqual({ closed: 0, opened: 1 });
    expect((await commandsOf(flowbox)).map((c) => c.name)).toEqual(['valve_close']);
    expect((await zoneEvents(zone.id)).at(-1)).toEqual({
      action: 'scheduled_opening_skipped',
      origin: 'system',
      fields: ['automatic_closing'],
    });
  });

  it('keeps the valve closed while another window of the zone runs, and opens a deleted schedule’s window', async () => {
    const zone = await newZone();
    const flowbox = await readyFlowbox(zone.id);
    const one = { recurring: false, date_start: '2026-08-01', date_end: '2026-08-01' };
    const a = (
      await cmA.post(
        `${zone.path}/schedules/create`,
        nightly({ ...one, label: 'A', closing_time: '10:00', opening_time: '12:00' }),
      )
    ).json();
    await cmA.post(
      `${zone.path}/schedules/create`,
      nightly({ ...one, label: 'B', closing_time: '11:00', opening_time: '13:00' }),
    );
    setClock('2026-08-01T08:30:00Z'); // 10:30: A runs
    await t.services.scheduleRunner.runDue();
    expect(
      (await cmA.delete(`${zone.path}/schedules/${a.id}/delete`, { confirm_name: 'A' })).statusCode,
    ).toBe(204);
    setClock('2026-08-01T09:30:00Z'); // 11:30: B runs too
    await t.services.scheduleRunner.runDue();
    setClock('2026-08-01T10:30:00Z'); // 12:30: A is over but B still runs
    await t.services.scheduleRunner.runDue();
    setClock('2026-08-01T11:30:00Z'); // 13:30: B is over
    await t.services.scheduleRunner.runDue();
    expect((await commandsOf(flowbox)).map((c) => c.name)).toEqual([
      'valve_close',
      'valve_close',
      'valve_open',
    ]);
    const log = (await zoneEvents(zone.id)).filter((e) => e.origin === 'system');
    expect(log).toEqual([
      { action: 'scheduled_closing_started', origin: 'system', fields: [] },
      { action: 'scheduled_closing_started', origin: 'system', fields: [] },
      { action: 'scheduled_opening_skipped', origin: 'system', fields: ['other_window_running'] },
      { action: 'scheduled_closing_ended', origin: 'system', fields: [] },
    ]);
  });

  it('closes nothing where scheduled closing is no longer authorised, but still opens what it closed', async () => {
    const zone = await newZone();
    const flowbox = await readyFlowbox(zone.id);
    await cmA.post(
      `${zone.path}/schedules/create`,
      nightly({ date_start: '2026-09-01', date_end: '2026-09-03' }),
    );
    setClock('2026-09-01T20:30:00Z');
    await t.services.scheduleRunner.runDue();
    expect((await cmA.put(zone.path + '/update', { scheduled_closing_authorised: false })).statusCode).toBe(
      200,
    );
    setClock('2026-09-02T04:30:00Z');
    await t.services.scheduleRunner.runDue();
    setClock('2026-09-02T20:30:00Z');
    await t.services.scheduleRunner.runDue();
    expect((await commandsOf(flowbox)).map((c) => c.name)).toEqual(['valve_close', 'valve_open']);
  });
});

describe('the device carries out a scheduled closing', () => {
  it('receives the close command, confirms it, and the confirmation lands in the activity log', async () => {
    const zone = await newZone();
    await subscribe(t, zone.id);
    const messaging = await startMessaging(t);
    const url = `mqtt://127.0.0.1:${messaging.port}`;
    try {
      const serial = uniqueSerial();
      const factorySecret = newSecret();
      const prepared = await cmA.post(`${zone.path}/flowboxes/pair`, {
        serial,
        factory_secret: factorySecret,
      });
      const flowboxId = prepared.json().id as string;
      const boot = await TestDevice.bootstrap(url, serial, factorySecret);
      await boot.subscribe('pairing/response');
      await boot.requestPairing();
      const seen = boot.received.length;
      await cmA.post(`${zone.path}/flowboxes/${flowboxId}/validate`);
      const accepted = (await boot.next('pairing/response', seen)).message;
      await boot.end();
      const device = await TestDevice.connect(url, serial, {
        username: serial,
        password: String(accepted.password),
      });
      await device.subscribe('commands');

      const now = t.clock.now();
      const hhmm = (d: Date) =>
        new Intl.DateTimeFormat('en-GB', {
          timeZone: 'Europe/Paris',
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: 'h23',
        }).format(d);
      const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(now);
      const end = new Date(now.getTime() + 2 * 3_600_000);
      // A one-off window from this minute to two hours later (same local day, or the next).
      await cmA.post(
        `${zone.path}/schedules/create`,
        nightly({
          recurring: false,
          date_start: day,
          date_end: new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(end),
          closing_time: hhmm(now),
          opening_time: hhmm(end),
        }),
      );
      expect(await t.services.scheduleRunner.runDue()).toEqual({ closed: 1, opened: 0 });
      const command = (await device.next('commands')).message;
      expect(command).toMatchObject({ name: 'close_valve' });
      await device.publish('acks', {
        v: PROTOCOL_VERSION,
        command_id: command.id,
        // The device's clock agrees with the server's (the test's).
        at: t.clock.now().toISOString(),
        result: 'done',
        reason: null,
      });
      const logged = await until(async () => {
        const rows = await t.db
          .select()
          .from(events)
          .where(and(eq(events.objectId, flowboxId), eq(events.actionName, 'valve_closed')));
        return rows.length > 0 ? rows : undefined;
      });
      expect(logged.map((e) => [e.origin, e.userName])).toEqual([['system', null]]);
      await device.end();
    } finally {
      await messaging.close();
    }
  });
});
