import { readingsOfFlowbox } from '../db/readings.ts';
import {
  deviceTopic,
  encodePayload,
  PROTOCOL_VERSION,
  ROLES,
  translate,
  type Backtest,
  type MessageKey,
  type BacktestDecision,
  type Telemetry,
} from '@flowbox/shared';
import { deliver, measure, segmentArb, type Delivered, type Segment } from '@flowbox/shared/testing';
import { and, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { telemetryReadings, zones } from '../db/schema.ts';
import { FlowboxIngest } from '../flowboxes/ingest.service.ts';
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
import { makeActor } from '../access/access.ts';
import { AutomationBacktest } from './backtest.ts';

/*
 * Backtest before saving (issue #29, docs/automation.md "Backtest"), end to end on PGlite (and
 * PostgreSQL with FLOWBOX_TEST_PG): a zone's generated water use goes through ingest and live
 * detection, which close its water and raise alerts (a user exiting each closing); the backtest of
 * the settings in force then answers exactly the live decisions, at the same instants, with the
 * same volumes and flow times. Lower margins close more often, higher ones less.
 */

/** Monday to Friday, 08:00 to 18:00: outside them an office zone's margins are halved. */
const OFFICE_HOURS = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day, i) => [
    day,
    i < 5 ? [{ start: '08:00', end: '18:00' }] : [],
  ]),
);

const IN_FORCE = {
  automatic_closing_enabled: true,
  volume_margin_enabled: true,
  volume_margin: 60,
  duration_margin_enabled: true,
  duration_margin_minutes: 20,
};

let t: TestApp;
let w: World;
let cmA: ApiClient;
let zonePath: string;
let zoneId: string;
let device: PairedDevice;
const log = { warn: () => undefined, error: () => undefined };

beforeAll(async () => {
  t = await createTestApp({ accessTokenTtl: 30 * 86400 });
  // A Monday at midnight in Paris, ahead of the real date: the night's margins are halved.
  t.clock.advance(Date.parse('2026-11-30T00:00:00+01:00') - t.clock.now().getTime());
  w = await createWorld(t.db);
  cmA = await loginAs(t.app, 'cm.a@test.io');
  const site = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
  const building = await cmA.post(
    `${site}/buildings/create`,
    buildingBody({ volume_unit: 'liter', opening_hours: OFFICE_HOURS, timezone: 'Europe/Paris' }),
  );
  const created = await cmA.post(
    `${site}/buildings/${building.json().id}/zones/create`,
    zoneBody({ name: 'Backtested office', profile: 'office' }),
  );
  expect(created.statusCode, created.body).toBe(201);
  zoneId = created.json().id as string;
  zonePath = `${site}/buildings/${building.json().id}/zones/${zoneId}`;
  await t.db.update(zones).set({ serviceLevel: 'premium' }).where(eq(zones.id, zoneId));
  const saved = await cmA.put(`${zonePath}/automation/update`, IN_FORCE);
  expect(saved.statusCode, saved.body).toBe(200);
  device = await pairDirectly(t.db, {
    customerId: w.customers.a.id,
    siteId: w.sites.a1.id,
    buildingId: building.json().id,
    zoneId,
  });
});
afterAll(() => t.close());

/** One reading as a device following docs/protocol.md publishes it. */
const message = (d: Delivered): Telemetry => ({
  v: PROTOCOL_VERSION,
  seq: d.reading.seq,
  at: new Date(d.reading.at).toISOString(),
  interval_s: 60,
  volume_l: d.reading.volumeMl / 1000,
  flow_s: d.reading.flowS,
  temperature_c: 20,
  humidity_pct: 50,
  ...(d.sentAt === null ? {} : { sent_at: new Date(d.sentAt).toISOString() }),
});

/** A decision as compared: what, when it was decided, and the event it was about. */
type Compared = Omit<BacktestDecision, 'crossed_at'>;
const compared = (d: BacktestDecision): Compared => {
  const { crossed_at: _crossedAt, ...rest } = d;
  return rest;
};

/**
 * A night and a working day of an office: a tap left running at night, a burst while the zone is
 * closed, a running toilet, generated daytime use, and a burst measured during an outage that
 * arrives after its water stopped.
 */
function waterUse(): Segment[] {
  const daytime = fc.sample(fc.array(segmentArb, { minLength: 12, maxLength: 12 }), {
    seed: 29,
    numRuns: 1,
  })[0]!;
  return [
    { kind: 'idle', minutes: 30 },
    { kind: 'use', minutes: 4, lpm: 12 }, // 48 L against the night's 30 L (60 L by day): closes
    { kind: 'idle', minutes: 20 },
    { kind: 'burst', minutes: 5, lpm: 20 }, // while closed: an alert
    { kind: 'idle', minutes: 240 }, // reopened meanwhile; detection rests an hour
    { kind: 'drip', minutes: 150, lpm: 0.2, flowS: 60 }, // 10 min of flow at night: closes; 2 h: a leak
    { kind: 'idle', minutes: 60 },
    ...daytime,
    { kind: 'idle', minutes: 30 },
    { kind: 'burst', minutes: 4, lpm: 25 }, // 100 L measured during the outage: an alert about the past
    { kind: 'idle', minutes: 60 },
  ];
}

/** A reopened zone: this long after it closed, a user exits automatic closing. */
const EXIT_AFTER_MS = 150 * 60_000;

/**
 * Live readings as the server gets them, but flow-free ones in tens (a flow-free reading decides
 * nothing on its own, and fewer batches keep the test short): a batch ends at each flowing reading.
 */
function fewerBatches(batches: readonly Delivered[][]): Delivered[][] {
  const merged: Delivered[][] = [];
  for (const batch of batches) {
    const last = merged.at(-1);
    const quiet = (b: readonly Delivered[]) =>
      b.every((d) => d.reading.volumeMl === 0 && d.reading.flowS === 0);
    if (last && batch.length === 1 && last.length < 10 && quiet(last) && quiet(batch)) {
      // Sent together at the later receipt: each keeps its own sent_at.
      for (const d of last) d.receivedAt = batch[0]!.receivedAt;
      last.push(batch[0]!);
    } else merged.push([...batch]);
  }
  return merged;
}

describe("a zone's live decisions, then its backtest", () => {
  const live: Compared[] = [];
  let minutes = 0;
  let stored = 0;

  beforeAll(async () => {
    const writer = new TelemetryWriter(t.services.context, t.services.telemetry, log);
    const ingest = new FlowboxIngest(
      t.services.context,
      t.services.flowboxes,
      t.services.commands,
      log,
      180,
      writer,
    );
    const use = waterUse();
    minutes = use.reduce((sum, s) => sum + s.minutes, 0);
    const readings = measure(use, t.clock.now().getTime() + 60_000, { skewMs: 0 });
    stored = readings.length;
    // Offline for the last 100 minutes but the hour after the burst: replayed in batches of 30.
    const batches = fewerBatches(
      deliver(
        readings,
        { kind: 'outage', from: minutes - 100, minutes: 70, batch: 30 },
        { skewMs: 0 },
        { delayMs: 300, withSentAt: true },
      ),
    );
    const raised: { zoneId: string; cause: string; details: Record<string, unknown> }[] = [];
    const raise = t.services.alerts.raise.bind(t.services.alerts);
    vi.spyOn(t.services.alerts, 'raise').mockImplementation((tx, input) => {
      raised.push({ zoneId: input.zoneId, cause: input.cause, details: input.details });
      return raise(tx, input);
    });
    let lockedAt: number | null = null;
    try {
      for (const batch of batches) {
        const ahead = batch[0]!.receivedAt - t.clock.now().getTime();
        if (ahead > 0) t.clock.advance(ahead);
        if (lockedAt !== null && t.clock.now().getTime() - lockedAt >= EXIT_AFTER_MS) {
          const exited = await cmA.post(`${zonePath}/automation/exit`, { confirm_name: 'Backtested office' });
          expect(exited.statusCode, exited.body).toBe(200);
          lockedAt = null;
        }
        const before = raised.length;
        const topic = deviceTopic(device.serial, 'telemetry');
        await Promise.all(
          batch.map((d) => ingest.handle(topic, new TextEncoder().encode(encodePayload(message(d))))),
        );
        const fresh = raised.slice(before).filter((r) => r.zoneId === zoneId);
        if (fresh.length === 0) continue;
        // Decided in the transaction of this batch: at its receipt, as stored.
        const [stored] = await t.db
          .select({ at: telemetryReadings.receivedAt })
          .from(telemetryReadings)
          .where(and(readingsOfFlowbox(device.flowboxId), eq(telemetryReadings.seq, batch[0]!.reading.seq)));
        for (const r of fresh) {
          const closing = r.cause === 'automatic_closing';
          if (closing) lockedAt = stored!.at.getTime();
          live.push({
            kind: closing ? 'closing' : 'alert',
            cause: r.cause as Compared['cause'],
            at: stored!.at.toISOString(),
            event_started_at: (r.details.event_started_at as string | null) ?? null,
            volume_l: r.details.volume_l as number,
            flow_s: r.details.flow_s as number,
            trigger: (r.details.trigger as Compared['trigger']) ?? null,
            reported_late: r.details.reported === 'late',
          });
        }
      }
    } finally {
      vi.restoreAllMocks();
      await writer.close();
    }
  }, 600_000);

  it('made closings and alerts of every kind live', async () => {
    if (process.env.BACKTEST_DUMP) {
      const res = await cmA.post(`${zonePath}/automation/backtest`, { profile: 'housing' });
      writeFileSync(process.env.BACKTEST_DUMP, JSON.stringify({ live, backtest: res.json() }, null, 1));
    }
    const kinds = new Set(live.map((d) => `${d.cause}${d.reported_late ? ' late' : ''}`));
    expect([...kinds].sort()).toEqual([
      'abnormal_consumption',
      'abnormal_consumption late',
      'automatic_closing',
      'continuous_flow',
    ]);
    expect(live.filter((d) => d.kind === 'closing').length).toBeGreaterThanOrEqual(2);
  });

  it('backtesting the settings in force gives exactly the live decisions', async () => {
    const res = await cmA.post(`${zonePath}/automation/backtest`, {});
    expect(res.statusCode, res.body).toBe(200);
    const backtest = res.json() as Backtest;
    expect(backtest.readings).toBe(stored);
    expect(backtest.in_force.decisions.map(compared)).toEqual(live);
    expect(backtest.in_force.closings).toBe(live.filter((d) => d.kind === 'closing').length);
    expect(backtest.in_force.alerts).toBe(live.filter((d) => d.kind === 'alert').length);
    // Nothing proposed: the proposal is the settings in force.
    expect(backtest.proposed).toEqual(backtest.in_force);
    // The same settings proposed, as the form sends them.
    const same = await cmA.post(`${zonePath}/automation/backtest`, {
      automatic_closing: IN_FORCE,
      profile: 'office',
    });
    expect((same.json() as Backtest).proposed).toEqual(backtest.in_force);
  });

  it('reads the stored readings by pages without changing a decision', async () => {
    const whole = (await cmA.post(`${zonePath}/automation/backtest`, {})).json() as Backtest;
    const [, customerId, siteId, buildingId] = zonePath.match(
      /customers\/(.+)\/sites\/(.+)\/buildings\/(.+)\/zones/,
    )!;
    const actor = makeActor(
      {
        id: w.users.cmA.id,
        firstname: 'Cara',
        lastname: 'Amanager',
        role: ROLES.customer_manager,
        customerId: customerId!,
        language: 'en',
        permissions: {},
      },
      [],
      'test',
    );
    // Pages of 7 readings: batches cut across pages are put together again.
    const paged = await new AutomationBacktest(t.services.context, 7).run(
      actor,
      { customerId: customerId!, siteId: siteId!, buildingId: buildingId!, zoneId },
      { days: 30 },
    );
    expect(paged.in_force).toEqual(whole.in_force);
    expect(paged.readings).toBe(whole.readings);
  });

  it('a lower margin closes more often, a higher one less', async () => {
    const run = async (volume: number, minutes: number) => {
      const res = await cmA.post(`${zonePath}/automation/backtest`, {
        automatic_closing: { ...IN_FORCE, volume_margin: volume, duration_margin_minutes: minutes },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as Backtest;
    };
    const lower = await run(20, 5);
    expect(lower.proposed.closings).toBeGreaterThan(lower.in_force.closings);
    const higher = await run(1000, 600);
    expect(higher.proposed.closings).toBeLessThan(higher.in_force.closings);
    // Alerts only: every crossing is an alert, no closing.
    const off = await cmA.post(`${zonePath}/automation/backtest`, {
      automatic_closing: { ...IN_FORCE, automatic_closing_enabled: false },
    });
    expect((off.json() as Backtest).proposed.closings).toBe(0);
    expect((off.json() as Backtest).proposed.alerts).toBeGreaterThan(0);
  });

  it('honours opening hours as live: a housing profile keeps its whole margins at night', async () => {
    const res = await cmA.post(`${zonePath}/automation/backtest`, { profile: 'housing' });
    const backtest = res.json() as Backtest;
    const belowWholeMargins = (d: BacktestDecision) =>
      d.kind === 'closing' &&
      d.volume_l <= IN_FORCE.volume_margin &&
      d.flow_s <= IN_FORCE.duration_margin_minutes * 60;
    // The office closed the night's 48 L tap on its halved margin; housing waits for 60 L.
    expect(backtest.in_force.decisions.filter(belowWholeMargins).length).toBeGreaterThan(0);
    expect(backtest.proposed.decisions.filter(belowWholeMargins)).toEqual([]);
    expect(backtest.proposed.decisions[0]!.at).not.toBe(backtest.in_force.decisions[0]!.at);
  });

  it('answers nothing for a window before the zone had readings', async () => {
    t.clock.advance(3 * 86_400_000);
    const res = await cmA.post(`${zonePath}/automation/backtest`, { days: 1 });
    t.clock.advance(-3 * 86_400_000);
    expect(res.json()).toMatchObject({
      readings: 0,
      in_force: { closings: 0, alerts: 0, decisions: [] },
      proposed: { closings: 0, alerts: 0, decisions: [] },
    });
  });
});

describe('bad input', () => {
  const cases: [string, unknown, MessageKey, Record<string, number>][] = [
    ['no more than 31 days', { days: 32 }, 'validation.max', { max: 31 }],
    ['at least a day', { days: 0 }, 'validation.min', { min: 1 }],
    ['whole days', { days: 1.5 }, 'validation.integer', {}],
    ['a known profile', { profile: 'castle' }, 'validation.invalid', {}],
  ];
  for (const [what, body, key, params] of cases)
    it(`${what}: 400 with the catalogue's message, in English and French`, async () => {
      const fr = await loginAs(t.app, 'cm.a@test.io', 'fr');
      for (const [client, language] of [
        [cmA, 'en'],
        [fr, 'fr'],
      ] as const) {
        const res = await client.post(`${zonePath}/automation/backtest`, body);
        expect(res.statusCode, res.body).toBe(400);
        expect(JSON.stringify(res.json())).toContain(translate(key, language, params));
      }
    });

  it('a volume margin outside its bounds: 400, in English and French', async () => {
    const body = { automatic_closing: { ...IN_FORCE, volume_margin: 5 } };
    const res = await cmA.post(`${zonePath}/automation/backtest`, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(JSON.stringify(res.json())).toContain(
      translate('validation.between', 'en', { min: 10, max: 100000 }),
    );
    const fr = await loginAs(t.app, 'cm.a@test.io', 'fr');
    const again = await fr.post(`${zonePath}/automation/backtest`, body);
    expect(JSON.stringify(again.json())).toContain(
      translate('validation.between', 'fr', { min: 10, max: 100000 }),
    );
  });

  it('an unknown zone: 404', async () => {
    const res = await cmA.post(
      `${zonePath.replace(zoneId, '00000000-0000-4000-8000-000000000000')}/automation/backtest`,
      {},
    );
    expect(res.statusCode).toBe(404);
  });
});
