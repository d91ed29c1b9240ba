import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FIRMWARE_ACTIVE_STATES, type Rollout } from '@flowbox/shared';
import { buildings, firmwareUpdates, flowboxes, zones as zonesTable } from '../db/schema.ts';
import type { FlowboxIngest } from '../flowboxes/ingest.service.ts';
import { loginAs, type ApiClient, type TestApp } from '../test/harness.ts';
import { FirmwareDevice, insertFleet, insertImage } from './testing.ts';
import { createRollout, startRolloutWorld, updatesOf } from './rollouts.testing.ts';

/*
 * How fast a rollout goes (docs/firmware.md "Rollouts"): each wave's random start delays, its
 * concurrency cap, and the buildings' opening hours, which its devices wait out.
 */

let t: TestApp;
let ingest: FlowboxIngest;
let provider: ApiClient;

beforeAll(async () => {
  ({ t, ingest } = await startRolloutWorld('pace.provider@test.io'));
});
afterAll(() => t.close());
// Tests move the clock past the access token's life: each signs in afresh.
beforeEach(async () => {
  provider = await loginAs(t.app, 'pace.provider@test.io');
});

const openAllWeek = () => {
  const allDay = [{ start: '00:00', end: '24:00' }];
  return {
    monday: allDay,
    tuesday: allDay,
    wednesday: allDay,
    thursday: allDay,
    friday: allDay,
    saturday: allDay,
    sunday: allDay,
  };
};

describe('a rollout’s pace', () => {
  it('spreads its devices’ starts over [0, start_jitter_s]: not all at once, none past the bound', async () => {
    const { customerId } = await insertFleet(t.db, 50, 'JITTER');
    const image = await insertImage(t.db, { version: '6.0.0' });
    const before = t.clock.now().getTime();
    const rollout = await createRollout(provider, {
      image_id: image.id,
      target: { customer_id: customerId },
      start_jitter_s: 300,
      waves_pct: [100],
    });
    const after = t.clock.now().getTime();
    const starts = (await updatesOf(t.db, rollout.id)).map((r) => r.update.startAfter!.getTime());
    expect(starts).toHaveLength(50);
    expect(starts.every((s) => s >= before && s <= after + 300_000)).toBe(true);
    // 50 draws over 300 whole seconds: many distinct delays, spread over most of the window (a
    // failure here would mean the draw ignores the device or the seed, not bad luck).
    expect(new Set(starts).size).toBeGreaterThan(25);
    expect(Math.max(...starts) - Math.min(...starts)).toBeGreaterThan(150_000);
    // Nobody starts before its delay; once the window is over, everyone may.
    const due = (at: number) => starts.filter((s) => s <= at).length;
    const passFrom = t.clock.now().getTime();
    const early = await t.services.rolloutRunner.advanceAll();
    expect(early).toBeGreaterThanOrEqual(due(passFrom));
    expect(early).toBeLessThanOrEqual(due(t.clock.now().getTime()));
    t.clock.advance(301_000);
    expect(early + (await t.services.rolloutRunner.advanceAll())).toBe(50);
  });

  it('never has more than max_concurrent devices on their way, pass after pass, and still finishes', async () => {
    const { customerId } = await insertFleet(t.db, 30, 'CAP');
    const image = await insertImage(t.db, { version: '6.0.1' });
    const rollout = await createRollout(provider, {
      image_id: image.id,
      target: { customer_id: customerId },
      start_jitter_s: 0,
      max_concurrent: 4,
      waves_pct: [20, 100],
    });
    const onTheirWay = async () =>
      t.db
        .select({ update: firmwareUpdates, serial: flowboxes.serial })
        .from(firmwareUpdates)
        .innerJoin(flowboxes, eq(flowboxes.id, firmwareUpdates.flowboxId))
        .where(
          and(
            eq(firmwareUpdates.rolloutId, rollout.id),
            inArray(firmwareUpdates.state, [...FIRMWARE_ACTIVE_STATES]),
          ),
        )
        .orderBy(flowboxes.serial);
    let peak = 0;
    for (let pass = 0; pass < 40; pass++) {
      await t.services.rolloutRunner.advanceAll();
      const running = await onTheirWay();
      expect(running.length).toBeLessThanOrEqual(4);
      peak = Math.max(peak, running.length);
      // Only two devices finish between passes: the others stay on their way, holding their slot.
      for (const { update, serial } of running.slice(0, 2)) {
        const device = new FirmwareDevice(ingest, serial);
        await device.state('6.0.1');
        await device.progress(update.id, '6.0.1', 'success', { progress_pct: 100 });
      }
    }
    expect(peak).toBe(4);
    const done = (await provider.get(`/v1/firmware/rollouts/${rollout.id}`)).json<Rollout>();
    expect(done).toMatchObject({ state: 'completed' });
    expect(done.counts.success).toBe(30);
  });

  it('waits out its building’s opening hours (waiting_opening_hours), looked at again 10 minutes later', async () => {
    const { customerId, zones, flowboxes: devices } = await insertFleet(t.db, 2, 'HOURS');
    const image = await insertImage(t.db, { version: '6.0.2' });
    // The building is open all week; the second device's zone keeps hours of its own: closed.
    await t.db
      .update(buildings)
      .set({ openingHours: openAllWeek() })
      .where(eq(buildings.id, zones[0]!.buildingId));
    await t.db
      .update(zonesTable)
      .set({
        openingHours: {
          ...openAllWeek(),
          monday: [],
          tuesday: [],
          wednesday: [],
          thursday: [],
          friday: [],
          saturday: [],
          sunday: [],
        },
      })
      .where(eq(zonesTable.id, devices[1]!.zoneId));
    const rollout = await createRollout(provider, {
      image_id: image.id,
      target: { customer_id: customerId },
      start_jitter_s: 0,
      waves_pct: [100],
    });
    const passAt = t.clock.now().getTime();
    expect(await t.services.rolloutRunner.advanceAll()).toBe(1);
    const [waiting, started] = await updatesOf(t.db, rollout.id);
    expect(started!.update).toMatchObject({ state: 'requested', reason: null });
    expect(waiting!.update).toMatchObject({ state: 'scheduled', reason: 'waiting_opening_hours' });
    const recheck = waiting!.update.startAfter!.getTime() - passAt;
    expect(recheck).toBeGreaterThanOrEqual(600_000);
    expect(recheck).toBeLessThan(660_000);
    // Still open, and not yet time to look again: nothing.
    t.clock.advance(300_000);
    expect(await t.services.rolloutRunner.advanceAll()).toBe(0);
    // The building closes; at the next look the device starts.
    await t.db.update(buildings).set({ openingHours: null }).where(eq(buildings.id, zones[0]!.buildingId));
    t.clock.advance(301_000);
    expect(await t.services.rolloutRunner.advanceAll()).toBe(1);
    expect((await updatesOf(t.db, rollout.id))[0]!.update).toMatchObject({
      state: 'requested',
      reason: null,
    });
  });

  it('updates during opening hours when created with during_opening_hours', async () => {
    const { customerId, zones } = await insertFleet(t.db, 3, 'DAYTIME');
    const image = await insertImage(t.db, { version: '6.0.3' });
    await t.db
      .update(buildings)
      .set({ openingHours: openAllWeek() })
      .where(eq(buildings.id, zones[0]!.buildingId));
    await createRollout(provider, {
      image_id: image.id,
      target: { customer_id: customerId },
      start_jitter_s: 0,
      waves_pct: [100],
      during_opening_hours: true,
    });
    expect(await t.services.rolloutRunner.advanceAll()).toBe(3);
  });
});
