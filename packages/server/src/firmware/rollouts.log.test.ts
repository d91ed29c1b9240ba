import { and, eq, gt, inArray, or } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, firmwareUpdates, firmwareUpdateSteps, flowboxes } from '../db/schema.ts';
import type { FlowboxIngest } from '../flowboxes/ingest.service.ts';
import { loginAs, type TestApp } from '../test/harness.ts';
import { FirmwareDevice, insertFleet, insertImage } from './testing.ts';
import { createRollout, startRolloutWorld, updatesOf } from './rollouts.testing.ts';

/*
 * Issue 30 item 16: each device of a rollout wrote five lines or more to the activity log (waiting,
 * requested, asking for the image, downloading, installing, succeeded, and its reboot), so a
 * rollout of a thousand flowboxes flooded it. A rollout's log is its own life, counted in its
 * lines (docs/firmware.md "Activity log"): started (how many flowboxes, waves, left out), each
 * further wave opened, halted, cancelled, completed (how many succeeded, failed, skipped); a device
 * has a line of its own only when its update fails, which someone must look at.
 */

let t: TestApp;
let ingest: FlowboxIngest;

beforeAll(async () => {
  ({ t, ingest } = await startRolloutWorld('log.provider@test.io'));
});
afterAll(() => t.close());

/** Every requested device goes the whole way, as a real one does; `fails` installs and rolls back. */
async function devicesAnswer(rolloutId: string, version: string, fails: Set<string>) {
  for (const { update, serial } of await updatesOf(t.db, rolloutId)) {
    if (update.state !== 'requested') continue;
    const device = new FirmwareDevice(ingest, serial);
    await device.progress(update.id, version, 'requesting');
    await device.progress(update.id, version, 'started', { progress_pct: 0 });
    await device.progress(update.id, version, 'downloaded', { progress_pct: 100 });
    if (fails.has(serial)) {
      await device.progress(update.id, version, 'failed', { reason: 'install_failed' });
      continue;
    }
    await device.reboot('firmware_update');
    await device.state(version);
    await device.progress(update.id, version, 'success', { progress_pct: 100 });
  }
}

/** A rollout over `count` flowboxes (one already on the version), run to its end; its log lines. */
async function rolloutOf(count: number, prefix: string, version: string) {
  const { customerId, flowboxes: devices } = await insertFleet(t.db, count, prefix);
  await t.db.update(flowboxes).set({ firmwareVersion: version }).where(eq(flowboxes.id, devices[0]!.id));
  const image = await insertImage(t.db, { version });
  const since = t.clock.now();
  t.clock.advance(1_000);
  const provider = await loginAs(t.app, 'log.provider@test.io');
  // The last flowbox fails: in the last wave, under the threshold, so the rollout completes.
  const failing = new Set([devices.at(-1)!.serial]);
  const rollout = await createRollout(provider, {
    image_id: image.id,
    target: { customer_id: customerId },
    start_jitter_s: 0,
    max_concurrent: 1_000,
    failure_threshold_pct: 50,
  });
  for (let pass = 0; pass < 12; pass++) {
    await t.services.rolloutRunner.advanceAll();
    await devicesAnswer(rollout.id, version, failing);
  }
  const ids = devices.map((d) => d.id);
  const lines = await t.db
    .select()
    .from(events)
    .where(
      and(gt(events.createdAt, since), or(inArray(events.objectId, ids), eq(events.objectId, rollout.id))),
    )
    .orderBy(events.createdAt, events.actionName);
  return { rollout, devices, lines };
}

describe('a rollout in the activity log', () => {
  it('writes as many lines for 60 flowboxes as for 12, one per state change of the rollout, and one per failed device', async () => {
    const small = await rolloutOf(12, 'LOGS', '6.0.0');
    const large = await rolloutOf(60, 'LOGL', '6.0.1');
    const shape = (lines: typeof small.lines) => lines.map((l) => [l.objectName, l.actionName, l.origin]);
    expect(shape(large.lines)).toEqual(shape(small.lines));
    expect(shape(large.lines)).toEqual([
      ['firmware_rollout', 'rollout_created', 'web'],
      ['firmware_rollout', 'rollout_wave_started', 'system'],
      ['firmware_rollout', 'rollout_wave_started', 'system'],
      ['firmware_rollout', 'rollout_wave_started', 'system'],
      ['flowbox', 'firmware_update', 'device'],
      ['firmware_rollout', 'rollout_completed', 'system'],
    ]);

    // What changed, counted in the rollout's lines (the web app words them, EN and FR).
    const fields = (action: string) => large.lines.find((l) => l.actionName === action)!.changedFields;
    expect(fields('rollout_created')).toEqual(['6.0.1', 'flowboxes=59', 'waves=4', 'left_out=1']);
    expect(
      large.lines.filter((l) => l.actionName === 'rollout_wave_started').map((l) => l.changedFields),
    ).toEqual([
      ['wave=2', 'waves=4', 'flowboxes=12'],
      ['wave=3', 'waves=4', 'flowboxes=15'],
      ['wave=4', 'waves=4', 'flowboxes=29'],
    ]);
    expect(fields('rollout_completed')).toEqual(['succeeded=58', 'failed=1', 'skipped=1']);
    const failure = large.lines.find((l) => l.actionName === 'firmware_update')!;
    expect(failure).toMatchObject({
      objectId: large.devices.at(-1)!.id,
      changedFields: ['failed', '6.0.1', 'install_failed'],
    });

    // Each device's whole update is still told where it belongs: its own history.
    const [done] = await t.db
      .select({ id: firmwareUpdates.id })
      .from(firmwareUpdates)
      .where(
        and(
          eq(firmwareUpdates.rolloutId, large.rollout.id),
          eq(firmwareUpdates.flowboxId, large.devices[1]!.id),
        ),
      );
    const steps = await t.db
      .select({ state: firmwareUpdateSteps.state })
      .from(firmwareUpdateSteps)
      .where(eq(firmwareUpdateSteps.updateId, done!.id))
      .orderBy(firmwareUpdateSteps.at, firmwareUpdateSteps.id);
    expect(steps.map((s) => s.state)).toEqual([
      'scheduled',
      'requested',
      'requesting',
      'started',
      'downloaded',
      'success',
    ]);
  }, 180_000);
});
