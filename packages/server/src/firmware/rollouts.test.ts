import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FIRMWARE_COMMAND_TTL_S, ROLES, type Rollout, type RolloutTimeline } from '@flowbox/shared';
import { buildApp } from '../app.ts';
import {
  alerts,
  deviceCommands,
  events,
  firmwareImageCustomers,
  firmwareRollouts,
  firmwareUpdates,
  firmwareUpdateSteps,
  flowboxes,
  zoneAutomation,
} from '../db/schema.ts';
import type { FlowboxIngest } from '../flowboxes/ingest.service.ts';
import { createUser, loginAs, testConfig, type ApiClient, type TestApp } from '../test/harness.ts';
import { createZones } from '../telemetry/testing.ts';
import { FirmwareDevice, insertFleet, insertImage, liveMessagesIn, statementsDuring } from './testing.ts';
import { createRollout, startRolloutWorld, updatesOf } from './rollouts.testing.ts';
import type { RolloutRunner } from './index.ts';

let t: TestApp;
let ingest: FlowboxIngest;
let provider: ApiClient;

beforeAll(async () => {
  ({ t, ingest } = await startRolloutWorld('ro.provider@test.io'));
});
afterAll(() => t.close());
// Tests move the clock past the access token's life: each signs in afresh.
beforeEach(async () => {
  provider = await loginAs(t.app, 'ro.provider@test.io');
});

const fleet = (count: number, prefix: string) => insertFleet(t.db, count, prefix);

/** Every device whose update was requested answers, through the real ingest: success or failure. */
async function devicesAnswer(rolloutId: string, version: string, fails: (serial: string) => boolean) {
  let answered = 0;
  for (const { update, serial } of await updatesOf(t.db, rolloutId)) {
    if (update.state !== 'requested') continue;
    const device = new FirmwareDevice(ingest, serial);
    if (fails(serial)) await device.progress(update.id, version, 'failed', { reason: 'install_failed' });
    else {
      // Back up on the new image: its retained state first, then the event.
      await device.state(version);
      await device.progress(update.id, version, 'success', { progress_pct: 100 });
    }
    answered += 1;
  }
  return answered;
}

/**
 * One pass of the rollout job; how many of this rollout's devices it started (the rollouts other
 * tests left running may start theirs in the same pass, once the clock has moved).
 */
async function passFor(rolloutId: string): Promise<number> {
  const started = async () =>
    (await updatesOf(t.db, rolloutId)).filter((r) => r.update.commandId !== null).length;
  const before = await started();
  await t.services.rolloutRunner.advanceAll();
  return (await started()) - before;
}

async function rolloutState(id: string): Promise<Rollout> {
  return (await provider.get(`/v1/firmware/rollouts/${id}`)).json<Rollout>();
}

describe('a staged rollout', () => {
  it('over 500 flowboxes halts when its first wave fails, and no device of a later wave starts', async () => {
    const { customerId, flowboxes: devices } = await fleet(500, 'HALT');
    const image = await insertImage(t.db, { version: '4.0.0' });
    const rollout = await createRollout(provider, {
      image_id: image.id,
      target: { customer_id: customerId },
      start_jitter_s: 0,
    });
    expect(rollout).toMatchObject({ state: 'running', total: 500, current_wave: 1 });
    expect(rollout.waves.map((w) => w.size)).toEqual([25, 100, 125, 250]);
    // 5 % of the fleet fails: the 25 first serials, which are the first wave (the canary).
    const failing = new Set(devices.slice(0, 25).map((d) => d.serial));
    for (let pass = 0; pass < 6; pass++) {
      await t.services.rolloutRunner.advanceAll();
      await devicesAnswer(rollout.id, '4.0.0', (serial) => failing.has(serial));
    }
    const after = await rolloutState(rollout.id);
    expect(after).toMatchObject({ state: 'halted', halt_reason: 'failure_threshold', current_wave: 1 });
    const rows = await updatesOf(t.db, rollout.id);
    expect(rows.filter((r) => (r.update.wave ?? 0) > 1 && r.update.state !== 'scheduled')).toEqual([]);
    expect(rows.filter((r) => r.update.wave === 1 && r.update.state === 'failed')).toHaveLength(25);
    const [alert] = await t.db
      .select()
      .from(alerts)
      .where(eq(alerts.cause, `firmware_rollout_halted:${rollout.id}`));
    expect(alert).toMatchObject({ category: 'flowbox_internal_status' });
    // Halted: further passes start nothing.
    expect(await passFor(rollout.id)).toBe(0);
  }, 120_000);

  it('over 500 flowboxes with 5 % failing spread through the fleet halts in its canary when its threshold fits the canary', async () => {
    const { customerId, flowboxes: devices } = await fleet(500, 'SPREAD');
    const image = await insertImage(t.db, { version: '4.0.1' });
    // Every 20th serial fails: 2 of the canary's 25. At 10 % the canary halts only from 3 failures
    // (3 × 100 > 10 × 25); with failures drawn at 5 %, a canary of 25 holds 3 or more about one time
    // in eight (binomial), so 10 % would usually let a bad image through to the next waves. Below
    // 100 / 25 = 4 %, the first failure of the canary halts it (docs/firmware.md "Automatic halt").
    const rollout = await createRollout(provider, {
      image_id: image.id,
      target: { customer_id: customerId },
      start_jitter_s: 0,
      failure_threshold_pct: 3,
    });
    expect(rollout.waves.map((w) => w.size)).toEqual([25, 100, 125, 250]);
    const failing = new Set(devices.filter((_, i) => i % 20 === 0).map((d) => d.serial));
    expect(failing.size).toBe(25);
    for (let pass = 0; pass < 6; pass++) {
      await passFor(rollout.id);
      await devicesAnswer(rollout.id, '4.0.1', (serial) => failing.has(serial));
    }
    expect(await rolloutState(rollout.id)).toMatchObject({
      state: 'halted',
      halt_reason: 'failure_threshold',
      current_wave: 1,
    });
    const rows = await updatesOf(t.db, rollout.id);
    // No device of a later wave ever started: every one is still waiting, without a command.
    const later = rows.filter((r) => (r.update.wave ?? 0) > 1);
    expect(later).toHaveLength(475);
    expect(later.every((r) => r.update.state === 'scheduled' && r.update.commandId === null)).toBe(true);
    expect(rows.filter((r) => r.update.wave === 1 && r.update.state === 'failed')).toHaveLength(2);
    expect(await passFor(rollout.id)).toBe(0);
  }, 120_000);

  it('judges a wave by its devices that tried, not those left out at their turn, checking each skip', async () => {
    // A canary of 10 where 8 are offline when their turn comes: of the two that try, one fails.
    // One failure in 10 is not over 10 %; one in the 2 that tried is 50 %. The failure comes
    // first (one device at a time), the skips after it: a skip must see the breach.
    const { customerId, flowboxes: devices } = await fleet(40, 'TRIED');
    const image = await insertImage(t.db, { version: '4.0.3' });
    const rollout = await createRollout(provider, {
      image_id: image.id,
      target: { customer_id: customerId },
      start_jitter_s: 0,
      max_concurrent: 1,
      waves_pct: [25, 100],
    });
    expect(rollout.waves.map((w) => w.size)).toEqual([10, 30]);
    expect(await passFor(rollout.id)).toBe(1);
    const canary = (await updatesOf(t.db, rollout.id)).filter((r) => r.update.wave === 1);
    const first = canary.find((r) => r.update.state === 'requested')!;
    const tries = canary.find((r) => r !== first)!;
    const offline = canary.filter((r) => r !== first && r !== tries).map((r) => r.update.flowboxId);
    await t.db.update(flowboxes).set({ connected: false }).where(inArray(flowboxes.id, offline));
    for (let pass = 0; pass < 16; pass++) {
      await devicesAnswer(rollout.id, '4.0.3', (serial) => serial === first.serial);
      await passFor(rollout.id);
    }
    const rows = await updatesOf(t.db, rollout.id);
    const state = (serial: string) => {
      const { update } = rows.find((r) => r.serial === serial)!;
      return `${update.state}:${update.reason ?? ''}`;
    };
    // 1 failure of 10 is within 10 %; the first skip makes it 1 of 9 at most: halted there.
    expect(state(first.serial)).toBe('failed:install_failed');
    expect(rows.filter((r) => r.update.reason === 'offline')).toHaveLength(1);
    expect(await rolloutState(rollout.id)).toMatchObject({
      state: 'halted',
      halt_reason: 'failure_threshold',
      current_wave: 1,
    });
    expect(rows.filter((r) => r.update.wave === 2 && r.update.commandId !== null)).toEqual([]);
    // The halt's alert is on the zone of the device that failed.
    const [alert] = await t.db
      .select()
      .from(alerts)
      .where(eq(alerts.cause, `firmware_rollout_halted:${rollout.id}`));
    expect(alert?.zoneId).toBe(devices.find((d) => d.serial === first.serial)!.zoneId);

    // Resumed once the cause is understood, it goes on: the other skips are no new failure, the
    // device that tries succeeds, and the next wave opens.
    const resumed = await provider.post(`/v1/firmware/rollouts/${rollout.id}/resume`, {});
    expect(resumed.statusCode, resumed.body).toBe(200);
    for (let pass = 0; pass < 16; pass++) {
      await devicesAnswer(rollout.id, '4.0.3', () => false);
      await passFor(rollout.id);
    }
    expect(await rolloutState(rollout.id)).toMatchObject({ state: 'running', current_wave: 2 });
    const after = await updatesOf(t.db, rollout.id);
    expect(after.find((r) => r.serial === tries.serial)?.update.state).toBe('success');
    expect(after.filter((r) => r.update.reason === 'offline')).toHaveLength(8);
    expect(after.filter((r) => r.update.wave === 2 && r.update.commandId !== null)).not.toEqual([]);
  });

  it('reaches 100 % success with each device updated once, two instances passing together', async () => {
    const { customerId, flowboxes: devices } = await fleet(120, 'CLEAN');
    const image = await insertImage(t.db, { version: '4.1.0' });
    const rollout = await createRollout(provider, {
      image_id: image.id,
      target: { customer_id: customerId },
      start_jitter_s: 0,
      max_concurrent: 20,
    });
    const second = await secondInstance();
    try {
      for (let pass = 0; pass < 40; pass++) {
        await Promise.all([t.services.rolloutRunner.advanceAll(), second.runner.advanceAll()]);
        await devicesAnswer(rollout.id, '4.1.0', () => false);
        if ((await rolloutState(rollout.id)).state === 'completed') break;
      }
    } finally {
      await second.close();
    }
    const done = await rolloutState(rollout.id);
    expect(done).toMatchObject({ state: 'completed' });
    expect(done.counts.success).toBe(120);
    // Its states over time end at its completion, everyone updated.
    const timeline = (
      await provider.get(`/v1/firmware/rollouts/${rollout.id}/timeline`)
    ).json<RolloutTimeline>();
    expect(timeline.points.at(-1)).toEqual({ at: done.finished_at, counts: [0, 0, 120, 0, 0] });
    expect(timeline.points[0]!.counts).toEqual([120, 0, 0, 0, 0]);
    const commands = await t.db
      .select({ flowboxId: deviceCommands.flowboxId, n: sql<number>`count(*)::int` })
      .from(deviceCommands)
      .where(
        and(
          eq(deviceCommands.name, 'update_firmware'),
          inArray(
            deviceCommands.flowboxId,
            devices.map((d) => d.id),
          ),
        ),
      )
      .groupBy(deviceCommands.flowboxId);
    expect(commands).toHaveLength(120);
    expect(commands.every((c) => c.n === 1)).toBe(true);
    const versions = await t.db
      .select({ v: flowboxes.firmwareVersion })
      .from(flowboxes)
      .where(
        inArray(
          flowboxes.id,
          devices.map((d) => d.id),
        ),
      );
    expect(new Set(versions.map((v) => v.v))).toEqual(new Set(['4.1.0']));
  }, 120_000);

  it("gives its states over its whole life, from its devices' steps, to whoever may read it", async () => {
    const { customerId } = await fleet(10, 'TIME');
    const image = await insertImage(t.db, { version: '4.0.5' });
    const rollout = await createRollout(provider, {
      image_id: image.id,
      target: { customer_id: customerId },
      start_jitter_s: 0,
      waves_pct: [100],
    });
    const timeline = async () => {
      const res = await provider.get(`/v1/firmware/rollouts/${rollout.id}/timeline`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<RolloutTimeline>();
    };
    t.clock.advance(60_000);
    expect(await passFor(rollout.id)).toBe(10);
    const running = await timeline();
    expect(running.groups).toEqual(['waiting', 'running', 'success', 'failed', 'left_out']);
    expect(running.points.map((p) => p.counts)).toEqual([
      [10, 0, 0, 0, 0],
      [0, 10, 0, 0, 0],
      // Not over: the counts as they are now close the line.
      [0, 10, 0, 0, 0],
    ]);
    t.clock.advance(60_000);
    await devicesAnswer(rollout.id, '4.0.5', (serial) => serial.endsWith('0') || serial.endsWith('1'));
    t.clock.advance(60_000);
    await t.services.rolloutRunner.advanceAll();
    const done = await timeline();
    expect((await rolloutState(rollout.id)).state).toBe('halted');
    // From the rollout's creation, not from when someone first looked.
    expect(done.points[0]!.counts).toEqual([10, 0, 0, 0, 0]);
    expect(Math.abs(Date.parse(done.points[0]!.at) - Date.parse(rollout.created_at))).toBeLessThan(1_000);
    expect(done.points.at(-2)!.counts).toEqual([0, 0, 8, 2, 0]);
    const times = done.points.map((p) => Date.parse(p.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    // Another customer's manager may not read it (the tenancy matrix walks every role).
    const other = await createZones(t.db, 'Europe/Paris');
    await createUser(t.db, {
      email: 'ro.other@test.io',
      role: ROLES.customer_manager,
      customerId: other[0]!.customerId,
    });
    const outsider = await loginAs(t.app, 'ro.other@test.io');
    expect((await outsider.get(`/v1/firmware/rollouts/${rollout.id}/timeline`)).statusCode).toBe(403);
  });

  it('logs its creation once, counting the devices it schedules and leaves out, and no line per device (issue 30)', async () => {
    const { customerId, flowboxes: devices } = await fleet(5, 'LOGGED');
    const image = await insertImage(t.db, { version: '4.1.6' });
    await t.db.update(flowboxes).set({ firmwareVersion: '4.1.6' }).where(eq(flowboxes.id, devices[4]!.id));
    const rollout = await createRollout(provider, {
      image_id: image.id,
      target: { customer_id: customerId },
    });
    expect(rollout.counts).toMatchObject({ scheduled: 4, skipped: 1 });
    const perDevice = await t.db
      .select({ id: events.id })
      .from(events)
      .where(
        inArray(
          events.objectId,
          devices.map((d) => d.id),
        ),
      );
    expect(perDevice).toEqual([]);
    const lines = await t.db
      .select({
        action: events.actionName,
        origin: events.origin,
        fields: events.changedFields,
        customerId: events.customerId,
        siteId: events.siteId,
      })
      .from(events)
      .where(eq(events.objectId, rollout.id));
    expect(lines).toEqual([
      {
        action: 'rollout_created',
        origin: 'web',
        fields: ['4.1.6', 'flowboxes=4', 'waves=4', 'left_out=1'],
        customerId,
        siteId: null,
      },
    ]);
  });

  it.each(['timeout', 'block_download_failed'] as const)(
    'halts on failures that are %s, not only failed ones, with its alert',
    async (failure) => {
      const { customerId, flowboxes: devices } = await fleet(10, `HALT-${failure}`);
      const version = failure === 'timeout' ? '4.0.7' : '4.0.8';
      const image = await insertImage(t.db, { version });
      const rollout = await createRollout(provider, {
        image_id: image.id,
        target: { customer_id: customerId },
        start_jitter_s: 0,
        waves_pct: [100],
      });
      expect(await passFor(rollout.id)).toBe(10);
      // Two of ten fail (20 % > the default 10 %): silent, or their downloads blocked.
      const failing = new Set(devices.slice(0, 2).map((d) => d.serial));
      for (const { update, serial } of await updatesOf(t.db, rollout.id)) {
        const device = new FirmwareDevice(ingest, serial);
        if (!failing.has(serial)) {
          await device.state(version);
          await device.progress(update.id, version, 'success', { progress_pct: 100 });
        } else if (failure === 'block_download_failed')
          await device.progress(update.id, version, 'block_download_failed', { reason: 'download_failed' });
      }
      if (failure === 'timeout') {
        t.clock.advance((FIRMWARE_COMMAND_TTL_S + 1) * 1000);
        // (Devices other tests left silent time out too: the count is at least ours.)
        expect(await t.services.firmwareUpdates.timeOutSilent()).toBeGreaterThanOrEqual(2);
      }
      expect(await rolloutState(rollout.id)).toMatchObject({
        state: 'halted',
        halt_reason: 'failure_threshold',
      });
      const states = (await updatesOf(t.db, rollout.id)).filter((r) => failing.has(r.serial));
      expect(states.map((r) => r.update.state)).toEqual([failure, failure]);
      const [alert] = await t.db
        .select()
        .from(alerts)
        .where(eq(alerts.cause, `firmware_rollout_halted:${rollout.id}`));
      expect(alert).toMatchObject({ details: { rollout_halted: 'failure_threshold' } });
    },
  );

  it('halts when its image is withdrawn, raising an alert like any halt, and starts nothing more', async () => {
    const { customerId, flowboxes: devices } = await fleet(6, 'WITHDRAWN');
    const image = await insertImage(t.db, { version: '4.1.5' });
    const rollout = await createRollout(provider, {
      image_id: image.id,
      target: { customer_id: customerId },
      start_jitter_s: 0,
      waves_pct: [50, 100],
    });
    expect(await passFor(rollout.id)).toBe(3);
    await devicesAnswer(rollout.id, '4.1.5', () => false);
    const withdrawn = await provider.patch(`/v1/firmware/images/${image.id}`, { status: 'withdrawn' });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(await passFor(rollout.id)).toBe(0);
    expect(await rolloutState(rollout.id)).toMatchObject({ state: 'halted', halt_reason: 'image_withdrawn' });
    const [alert] = await t.db
      .select()
      .from(alerts)
      .where(eq(alerts.cause, `firmware_rollout_halted:${rollout.id}`));
    expect(alert).toMatchObject({
      category: 'flowbox_internal_status',
      details: { rollout_halted: 'image_withdrawn', rollout: rollout.target.label, version: '4.1.5' },
    });
    // On a device the halt stopped: the first of the wave still waiting.
    expect(alert!.flowboxSerial).toBe(devices[3]!.serial);
    expect(await passFor(rollout.id)).toBe(0);
    const waiting = (await updatesOf(t.db, rollout.id)).filter((r) => r.update.wave === 2);
    expect(waiting.map((r) => r.update.state)).toEqual(['scheduled', 'scheduled', 'scheduled']);
  });

  it('lets no device move an update it was never sent: waiting, or cancelled before its turn', async () => {
    const { customerId } = await fleet(6, 'UNSENT');
    const image = await insertImage(t.db, { version: '4.1.7' });
    const rollout = await createRollout(provider, {
      image_id: image.id,
      target: { customer_id: customerId },
      start_jitter_s: 0,
      waves_pct: [30, 60, 100],
    });
    expect(rollout.waves.map((w) => w.size)).toEqual([2, 2, 2]);
    expect(await passFor(rollout.id)).toBe(2);
    await devicesAnswer(rollout.id, '4.1.7', () => true);
    const halted = await rolloutState(rollout.id);
    expect(halted).toMatchObject({ state: 'halted', current_wave: 1 });
    const waiting = (await updatesOf(t.db, rollout.id)).filter((r) => r.update.wave! > 1);
    expect(waiting.map((r) => r.update.state)).toEqual(Array(4).fill('scheduled'));
    const alertsBefore = (await t.db.select().from(alerts)).length;
    const before = { ...t.services.firmwareUpdates.counters };
    // Devices of waves 2 and 3 report on their own waiting update, each state a device may say.
    const said = ['success', 'started', 'failed', 'downloaded'] as const;
    for (const [i, { update, serial }] of waiting.entries()) {
      const device = new FirmwareDevice(ingest, serial);
      if (said[i] === 'success') await device.state('4.1.7');
      await device.progress(update.id, '4.1.7', said[i]!, {
        progress_pct: 50,
        ...(said[i] === 'failed' ? { reason: 'install_failed' as const } : {}),
      });
    }
    const after = t.services.firmwareUpdates.counters;
    expect(after.unknown_update - before.unknown_update).toBe(4);
    expect(after.moved - before.moved).toBe(0);
    const rows = (await updatesOf(t.db, rollout.id)).filter((r) => r.update.wave! > 1);
    expect(rows.map((r) => [r.update.state, r.update.progressPct, r.update.finishedAt])).toEqual(
      Array(4).fill(['scheduled', null, null]),
    );
    const steps = await t.db
      .select()
      .from(firmwareUpdateSteps)
      .where(
        inArray(
          firmwareUpdateSteps.updateId,
          rows.map((r) => r.update.id),
        ),
      );
    expect(steps.map((s) => s.state)).toEqual(Array(4).fill('scheduled'));
    expect((await t.db.select().from(alerts)).length).toBe(alertsBefore);
    const still = await rolloutState(rollout.id);
    expect(still.counts).toEqual(halted.counts);
    expect(still.waves).toEqual(halted.waves);

    // Cancelled before its turn, an update was never sent either: its device has nothing to say on it.
    expect((await provider.post(`/v1/firmware/rollouts/${rollout.id}/cancel`, {})).statusCode).toBe(200);
    const cancelled = waiting[0]!;
    const late = t.services.firmwareUpdates.counters.late;
    await new FirmwareDevice(ingest, cancelled.serial).progress(cancelled.update.id, '4.1.7', 'success', {
      seq: 100,
    });
    expect(t.services.firmwareUpdates.counters.unknown_update - before.unknown_update).toBe(5);
    expect(t.services.firmwareUpdates.counters.late).toBe(late);
  });

  it('pauses (nothing new starts), resumes, and cancels (waiting devices become cancelled)', async () => {
    const { customerId } = await fleet(40, 'CTRL');
    const image = await insertImage(t.db, { version: '4.2.0' });
    const rollout = await createRollout(provider, {
      image_id: image.id,
      target: { customer_id: customerId },
      start_jitter_s: 0,
      waves_pct: [10, 100],
    });
    const act = (action: string) => provider.post(`/v1/firmware/rollouts/${rollout.id}/${action}`, {});
    expect((await act('pause')).json()).toMatchObject({ state: 'paused' });
    expect((await act('pause')).json()).toMatchObject({ code: 'errors.rollout_state' });
    expect(await passFor(rollout.id)).toBe(0);
    expect((await act('resume')).json()).toMatchObject({ state: 'running' });
    expect(await passFor(rollout.id)).toBe(4);
    const cancelled = (await act('cancel')).json<Rollout>();
    expect(cancelled).toMatchObject({ state: 'cancelled' });
    expect(cancelled.counts).toMatchObject({ requested: 4, cancelled: 36, scheduled: 0 });
    expect(await passFor(rollout.id)).toBe(0);
    expect((await act('resume')).json()).toMatchObject({ code: 'errors.rollout_state' });
  });

  it('skips, when their turn comes, devices offline, in a locked zone, or with a valve command pending', async () => {
    const { customerId, zones, flowboxes: devices } = await fleet(30, 'GUARD');
    const image = await insertImage(t.db, { version: '4.3.0' });
    await t.db.update(flowboxes).set({ firmwareVersion: '4.3.0' }).where(eq(flowboxes.id, devices[29]!.id));
    const rollout = await createRollout(provider, {
      image_id: image.id,
      target: { customer_id: customerId },
      start_jitter_s: 0,
      waves_pct: [100],
    });
    await t.db.update(flowboxes).set({ connected: false }).where(eq(flowboxes.id, devices[0]!.id));
    await t.db.insert(zoneAutomation).values({ zoneId: zones[1]!.zoneId, lockedAt: new Date() });
    const now = t.clock.now();
    await t.db.insert(deviceCommands).values({
      flowboxId: devices[2]!.id,
      name: 'valve_open',
      origin: 'web',
      issuedAt: now,
      expiresAt: new Date(now.getTime() + 60_000),
      nextAttemptAt: new Date(now.getTime() + 60_000),
      status: 'sent',
    });
    await t.services.rolloutRunner.advanceAll();
    const reasons = new Map(
      (await updatesOf(t.db, rollout.id)).map((r) => [
        r.serial,
        `${r.update.state}:${r.update.reason ?? ''}`,
      ]),
    );
    expect(reasons.get(devices[0]!.serial)).toBe('skipped:offline');
    // Zone 2 holds devices 1, 11, 21.
    expect(reasons.get(devices[1]!.serial)).toBe('skipped:zone_locked');
    expect(reasons.get(devices[11]!.serial)).toBe('skipped:zone_locked');
    expect(reasons.get(devices[2]!.serial)).toBe('skipped:valve_command_pending');
    expect(reasons.get(devices[29]!.serial)).toBe('skipped:already_on_version');
    expect(reasons.get(devices[3]!.serial)).toBe('requested:');
  });

  it('skips, when its turn comes, a device that already runs the version or whose customer lost the image', async () => {
    const { customerId, flowboxes: devices } = await fleet(4, 'RECHECK');
    const other = await fleet(2, 'RECHECK-OTHER');
    const image = await insertImage(t.db, { version: '4.3.5', customers: [customerId, other.customerId] });
    const rollout = await createRollout(provider, {
      image_id: image.id,
      target: { customer_id: customerId },
      start_jitter_s: 0,
      waves_pct: [100],
    });
    // Updated by other means meanwhile: started from 4.3.5 to 4.3.5, it could never succeed.
    await t.db.update(flowboxes).set({ firmwareVersion: '4.3.5' }).where(eq(flowboxes.id, devices[0]!.id));
    expect(await passFor(rollout.id)).toBe(3);
    const reasons = new Map(
      (await updatesOf(t.db, rollout.id)).map((r) => [
        r.serial,
        `${r.update.state}:${r.update.reason ?? ''}`,
      ]),
    );
    expect(reasons.get(devices[0]!.serial)).toBe('skipped:already_on_version');
    expect(reasons.get(devices[1]!.serial)).toBe('requested:');

    // The provider takes the image back from the customer: its devices still waiting are left out.
    const second = await createRollout(provider, {
      image_id: image.id,
      target: { customer_id: other.customerId },
      start_jitter_s: 0,
      waves_pct: [100],
    });
    await t.db
      .delete(firmwareImageCustomers)
      .where(
        and(
          eq(firmwareImageCustomers.imageId, image.id),
          eq(firmwareImageCustomers.customerId, other.customerId),
        ),
      );
    expect(await passFor(second.id)).toBe(0);
    expect(
      (await updatesOf(t.db, second.id)).map((r) => `${r.update.state}:${r.update.reason ?? ''}`),
    ).toEqual(['skipped:not_released', 'skipped:not_released']);
  });

  it('leaves out, when created, the devices waiting in another running or paused rollout', async () => {
    const { customerId, zones, flowboxes: devices } = await fleet(20, 'OVERLAP');
    const first = await insertImage(t.db, { version: '4.3.6' });
    const second = await insertImage(t.db, { version: '4.3.7' });
    const zoneRollout = await createRollout(provider, {
      image_id: first.id,
      target: {
        customer_id: customerId,
        site_id: zones[0]!.siteId,
        building_id: zones[0]!.buildingId,
        zone_id: zones[0]!.zoneId,
      },
      start_jitter_s: 86_400,
    });
    await provider.post(`/v1/firmware/rollouts/${zoneRollout.id}/pause`, {});
    const wide = await createRollout(provider, { image_id: second.id, target: { customer_id: customerId } });
    // Zone 1 holds devices 0 and 10: they wait in the first rollout, paused but not over.
    const reasons = new Map(
      (await updatesOf(t.db, wide.id)).map((r) => [r.serial, `${r.update.state}:${r.update.reason ?? ''}`]),
    );
    expect(reasons.get(devices[0]!.serial)).toBe('skipped:in_other_rollout');
    expect(reasons.get(devices[10]!.serial)).toBe('skipped:in_other_rollout');
    expect(reasons.get(devices[1]!.serial)).toBe('scheduled:');
    expect(wide.counts).toMatchObject({ skipped: 2, scheduled: 18 });
  });

  it('skips, when its turn comes, a device that waits in another rollout resumed meanwhile', async () => {
    const { customerId, flowboxes: devices } = await fleet(5, 'RESUMED');
    const first = await insertImage(t.db, { version: '4.3.8' });
    const second = await insertImage(t.db, { version: '4.3.9' });
    const halted = await createRollout(provider, {
      image_id: first.id,
      target: { customer_id: customerId },
      start_jitter_s: 0,
      waves_pct: [100],
    });
    // A halted rollout starts nothing: a new one may take its waiting devices…
    await t.db
      .update(firmwareRollouts)
      .set({ state: 'halted', haltReason: 'failure_threshold' })
      .where(eq(firmwareRollouts.id, halted.id));
    const newer = await createRollout(provider, {
      image_id: second.id,
      target: { customer_id: customerId },
      start_jitter_s: 0,
      waves_pct: [100],
    });
    expect(newer.counts).toMatchObject({ scheduled: 5 });
    // …and when the halted one is resumed, whichever turn comes first takes each device, once.
    expect((await provider.post(`/v1/firmware/rollouts/${halted.id}/resume`, {})).statusCode).toBe(200);
    expect(await passFor(newer.id)).toBe(5);
    const states = [...(await updatesOf(t.db, halted.id)), ...(await updatesOf(t.db, newer.id))].map(
      (r) => `${r.update.rolloutId === halted.id ? 'old' : 'new'}:${r.update.state}:${r.update.reason ?? ''}`,
    );
    expect(states.filter((s) => s === 'old:skipped:in_other_rollout')).toHaveLength(5);
    expect(states.filter((s) => s === 'new:requested:')).toHaveLength(5);
    expect(devices).toHaveLength(5);
  });

  it('refuses a single update of a flowbox waiting its turn in a running or paused rollout', async () => {
    const { customerId, zones, flowboxes: devices } = await fleet(2, 'ALONE');
    const image = await insertImage(t.db, { version: '4.3.10' });
    const rollout = await createRollout(provider, {
      image_id: image.id,
      target: { customer_id: customerId },
      start_jitter_s: 86_400,
    });
    const zone = zones[0]!;
    const url = `/v1/customers/${zone.customerId}/sites/${zone.siteId}/buildings/${zone.buildingId}/zones/${zone.zoneId}/flowboxes/${devices[0]!.id}/firmware`;
    const refused = await provider.post(url, { image_id: image.id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'errors.firmware_in_rollout' });
    // Once the rollout is over, the flowbox is the user's again.
    await provider.post(`/v1/firmware/rollouts/${rollout.id}/cancel`, {});
    expect((await provider.post(url, { image_id: image.id })).statusCode).toBe(201);
  });

  it('is refused for a withdrawn image, and stores nothing', async () => {
    const { customerId } = await fleet(3, 'GONE');
    const image = await insertImage(t.db, { version: '4.4.2', status: 'withdrawn' });
    const res = await provider.post('/v1/firmware/rollouts', {
      image_id: image.id,
      target: { customer_id: customerId },
    });
    expect([res.statusCode, res.json().code]).toEqual([409, 'errors.firmware_withdrawn']);
    const stored = await t.db
      .select({ id: firmwareRollouts.id })
      .from(firmwareRollouts)
      .where(eq(firmwareRollouts.imageId, image.id));
    expect(stored).toEqual([]);
  });

  it('is refused when nothing can take the image, and for an image the customer was not given', async () => {
    const { customerId } = await fleet(3, 'NONE');
    const otherModel = await insertImage(t.db, { version: '4.4.0', models: ['two_inches_v1'] });
    const res = await provider.post('/v1/firmware/rollouts', {
      image_id: otherModel.id,
      target: { customer_id: customerId },
    });
    expect(res.json()).toMatchObject({ code: 'errors.rollout_no_devices' });
    const notReleased = await insertImage(t.db, { version: '4.4.1', customers: [] });
    const refused = await provider.post('/v1/firmware/rollouts', {
      image_id: notReleased.id,
      target: { customer_id: customerId },
    });
    expect(refused.statusCode).toBe(403);
    // Nothing was stored for either.
    const stored = await t.db
      .select({ id: firmwareUpdates.id })
      .from(firmwareUpdates)
      .where(inArray(firmwareUpdates.imageId, [otherModel.id, notReleased.id]));
    expect(stored).toEqual([]);
  });
});

describe('cancelling a rollout', () => {
  /** A rollout whose `count` devices all wait their turn (their start delays far away). */
  async function waitingRollout(count: number, prefix: string, version: string) {
    const { customerId, flowboxes: devices } = await fleet(count, prefix);
    const image = await insertImage(t.db, { version });
    const rollout = await createRollout(provider, {
      image_id: image.id,
      target: { customer_id: customerId },
      start_jitter_s: 86_400,
      waves_pct: [100],
    });
    return { rollout, devices };
  }

  const cancel = async (id: string) => {
    const res = await provider.post(`/v1/firmware/rollouts/${id}/cancel`, {});
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Rollout>();
  };

  it('of 2,000 waiting devices costs a few statements and one live message, not a handful per device', async () => {
    const small = await waitingRollout(20, 'CSMALL', '4.6.0');
    const large = await waitingRollout(2000, 'CLARGE', '4.6.1');
    const smallSent = await statementsDuring(t.db, () => cancel(small.rollout.id));
    let cancelled: Rollout | undefined;
    const largeSent = await statementsDuring(t.db, async () => {
      cancelled = await cancel(large.rollout.id);
    });
    expect(cancelled).toMatchObject({ state: 'cancelled' });
    expect(cancelled!.counts).toMatchObject({ cancelled: 2000, scheduled: 0 });
    // Rows are inserted a thousand a statement (PostgreSQL's parameter limit): a 2,000-device
    // cancel may send a few more statements than a 20-device one, never a few per device.
    expect(largeSent.length).toBeLessThanOrEqual(smallSent.length + 4);
    // One message for the rollout: the page reads it again, with its devices.
    expect(liveMessagesIn(largeSent)).toEqual([expect.objectContaining({ type: 'firmware_rollout' })]);

    const ids = large.devices.map((d) => d.id);
    const steps = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(firmwareUpdateSteps)
      .innerJoin(firmwareUpdates, eq(firmwareUpdates.id, firmwareUpdateSteps.updateId))
      .where(
        and(eq(firmwareUpdates.rolloutId, large.rollout.id), eq(firmwareUpdateSteps.state, 'cancelled')),
      );
    expect(steps[0]!.n).toBe(2000);
    // One activity-log line for the rollout, counting them, and none per device (issue 30).
    const perDevice = await t.db.select({ id: events.id }).from(events).where(inArray(events.objectId, ids));
    expect(perDevice).toEqual([]);
    const lines = await t.db
      .select({ action: events.actionName, origin: events.origin, fields: events.changedFields })
      .from(events)
      .where(eq(events.objectId, large.rollout.id));
    expect(lines.filter((l) => l.action === 'rollout_cancelled')).toEqual([
      { action: 'rollout_cancelled', origin: 'web', fields: ['cancelled=2000', 'succeeded=0', 'failed=0'] },
    ]);
  }, 300_000);
});

/** Another app on the same database and clock (see schedules.test.ts): a second server instance. */
async function secondInstance(): Promise<{ runner: RolloutRunner; close: () => Promise<void> }> {
  const { app, services } = await buildApp({
    config: testConfig(),
    db: t.db,
    now: t.clock.now,
    logger: false,
  });
  await app.ready();
  return { runner: services.rolloutRunner, close: () => app.close() };
}
