import { PROTOCOL_VERSION, ROLES, type Rollout } from '@flowbox/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firmwareRollouts, firmwareUpdates, flowboxes } from '../db/schema.ts';
import { findFlowboxById } from '../flowboxes/index.ts';
import { claimReceipt } from '../flowboxes/flowboxes.repo.ts';
import { createTestApp, createUser, loginAs, type ApiClient, type TestApp } from '../test/harness.ts';
import { createZones } from '../telemetry/testing.ts';
import { insertImage } from './testing.ts';

/*
 * Lock order between a device's firmware message and the rollout job (docs/firmware.md "Lock
 * order"), with real concurrent transactions on PostgreSQL (on PGlite, whose one connection runs
 * transactions one after the other, the same steps simply take turns).
 *
 * A device message holds its flowbox (its receipt's foreign key), then its update, and a failure
 * waits for its rollout (the halt check). The rollout job holds the rollouts it claimed and, when a
 * device's turn comes, wants that flowbox. A flowbox can be waiting in one rollout while updating in
 * another (two overlapping places): without care, each waits for the other and PostgreSQL kills one.
 */

let t: TestApp;
let provider: ApiClient;

beforeAll(async () => {
  t = await createTestApp();
  await createUser(t.db, { email: 'locks.provider@test.io', role: ROLES.flovea_manager });
  provider = await loginAs(t.app, 'locks.provider@test.io');
});
afterAll(() => t.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a device failure and the rollout job at once', () => {
  it('both finish, no deadlock: the job leaves a flowbox busy with a message for its next pass', async () => {
    const [zone] = await createZones(t.db, 'Europe/Paris');
    const [flowbox] = await t.db
      .insert(flowboxes)
      .values({
        serial: 'LOCK-0001',
        zoneId: zone!.zoneId,
        pairingState: 'ready',
        model: 'one_inch_v1',
        firmwareVersion: '2.4.0',
        connected: true,
        connectionChangedAt: new Date(Date.now() - 3_600_000),
        lastSeenAt: new Date(),
      })
      .returning();
    const target = {
      customer_id: zone!.customerId,
      site_id: zone!.siteId,
      building_id: zone!.buildingId,
      zone_id: zone!.zoneId,
    };
    const create = async (version: string) => {
      const image = await insertImage(t.db, { version });
      const res = await provider.post('/v1/firmware/rollouts', {
        image_id: image.id,
        target,
        waves_pct: [100],
        start_jitter_s: 0,
        during_opening_hours: true,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<Rollout>();
    };
    // The flowbox updates in the first rollout while it waits its turn in the second: a rollout
    // created over a device waiting in another under way leaves it out, but a halted one holds
    // nothing, and may be resumed once the other has started the device.
    const second = await create('5.0.1');
    await t.db.update(firmwareRollouts).set({ state: 'halted' }).where(eq(firmwareRollouts.id, second.id));
    const first = await create('5.0.0');
    expect(await t.services.rolloutRunner.advanceAll()).toBe(1);
    expect((await provider.post(`/v1/firmware/rollouts/${second.id}/resume`, {})).statusCode).toBe(200);
    const [updating] = await t.db
      .select()
      .from(firmwareUpdates)
      .where(and(eq(firmwareUpdates.rolloutId, first.id), eq(firmwareUpdates.flowboxId, flowbox!.id)));
    expect(updating!.state).toBe('requested');

    // The device's failure, as the ingest handles it: the receipt first (its foreign key holds the
    // flowbox), then the update's own state machine, whose halt check wants the first rollout.
    let holdsFlowbox!: () => void;
    const held = new Promise<void>((resolve) => (holdsFlowbox = resolve));
    const message = t.db.transaction(async (tx) => {
      expect(await claimReceipt(tx, flowbox!.id, 1, t.clock.now())).toBe(true);
      holdsFlowbox();
      // Meanwhile the job claims both rollouts and comes to the flowbox's turn in the second.
      await sleep(t.databaseUrl ? 500 : 0);
      const located = await findFlowboxById(tx, flowbox!.id);
      await t.services.firmwareUpdates.listener().progress(
        tx,
        located!,
        {
          v: PROTOCOL_VERSION,
          seq: 1,
          at: t.clock.now().toISOString(),
          type: 'firmware_progress',
          update_id: updating!.id,
          state: 'failed',
          version: '5.0.0',
          progress_pct: null,
          reason: 'install_failed',
        },
        t.clock.now(),
      );
    });
    await held;
    const job = t.services.rolloutRunner.advanceAll();
    // PostgreSQL would end one of them with "deadlock detected" (40P01) within deadlock_timeout.
    await Promise.all([message, job]);

    const [failed] = await t.db.select().from(firmwareUpdates).where(eq(firmwareUpdates.id, updating!.id));
    expect(failed).toMatchObject({ state: 'failed', reason: 'install_failed' });
    const [halted] = await t.db.select().from(firmwareRollouts).where(eq(firmwareRollouts.id, first.id));
    expect(halted).toMatchObject({ state: 'halted', haltReason: 'failure_threshold' });
    // The flowbox's turn in the second rollout was only put off: the next pass takes it.
    await t.services.rolloutRunner.advanceAll();
    const [turn] = await t.db
      .select()
      .from(firmwareUpdates)
      .where(and(eq(firmwareUpdates.rolloutId, second.id), eq(firmwareUpdates.flowboxId, flowbox!.id)));
    expect(turn!.state).toBe('requested');
  });
});
