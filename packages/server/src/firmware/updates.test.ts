import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  FIRMWARE_COMMAND_TTL_S,
  FIRMWARE_DOWNLOAD_ATTEMPTS,
  FIRMWARE_INSTALL_TIMEOUT_S,
  FIRMWARE_URL_TTL_S,
  ROLES,
  type FirmwareUpdate,
  type FlowboxFirmware,
} from '@flowbox/shared';
import { createTestApp, createUser, loginAs, type ApiClient, type TestApp } from '../test/harness.ts';
import { createZones, pairDirectly, type TelemetryZone } from '../telemetry/testing.ts';
import { FlowboxIngest } from '../flowboxes/ingest.service.ts';
import {
  alerts,
  buildings,
  deviceCommands,
  events,
  firmwareImages,
  firmwareUpdates,
  firmwareUpdateSteps,
  flowboxes,
  sites,
  zoneAutomation,
  zones,
} from '../db/schema.ts';
import { FirmwareDevice, insertImage, setDevice, statementsDuring } from './testing.ts';
import { findUpdateForDownload, recordDownloadStart, verifyDownloadToken } from './index.ts';

let t: TestApp;
let ingest: FlowboxIngest;
let zone: TelemetryZone;
let provider: ApiClient;

beforeAll(async () => {
  t = await createTestApp();
  ingest = new FlowboxIngest(
    t.services.context,
    t.services.flowboxes,
    t.services.commands,
    { warn: () => {} },
    180,
  );
  [zone] = (await createZones(t.db, 'Europe/Paris')) as [TelemetryZone];
  await createUser(t.db, { email: 'fw.provider@test.io', role: ROLES.flovea_manager });
});
afterAll(() => t.close());
// Tests move the clock past the access token's life: each signs in afresh.
beforeEach(async () => {
  provider = await loginAs(t.app, 'fw.provider@test.io');
});

const flowboxUrl = (flowboxId: string) =>
  `/v1/customers/${zone.customerId}/sites/${zone.siteId}/buildings/${zone.buildingId}/zones/${zone.zoneId}/flowboxes/${flowboxId}/firmware`;

/** A connected one_inch_v1 flowbox on 2.4.0, and its device speaking through the real ingest. */
async function connectedFlowbox() {
  const paired = await pairDirectly(t.db, zone);
  await setDevice(t.db, paired.flowboxId);
  return { ...paired, device: new FirmwareDevice(ingest, paired.serial) };
}

async function requestUpdate(flowboxId: string, imageId: string): Promise<FirmwareUpdate> {
  const res = await provider.post(flowboxUrl(flowboxId), { image_id: imageId });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<FirmwareUpdate>();
}

async function updateRow(id: string) {
  const [row] = await t.db.select().from(firmwareUpdates).where(eq(firmwareUpdates.id, id));
  return row!;
}

async function stepStates(id: string) {
  const rows = await t.db
    .select()
    .from(firmwareUpdateSteps)
    .where(eq(firmwareUpdateSteps.updateId, id))
    .orderBy(firmwareUpdateSteps.id);
  return rows.map((r) => (r.reason ? `${r.state}:${r.reason}` : r.state));
}

async function commandOf(updateId: string) {
  const update = await updateRow(updateId);
  const [command] = await t.db.select().from(deviceCommands).where(eq(deviceCommands.id, update.commandId!));
  return command!;
}

describe('a single firmware update driven by the device', () => {
  it('goes requested → requesting → started → downloaded → success, and the flowbox takes the new version', async () => {
    const image = await insertImage(t.db, { version: '2.5.0' });
    const { flowboxId, serial, device } = await connectedFlowbox();
    const update = await requestUpdate(flowboxId, image.id);
    expect(update).toMatchObject({ state: 'requested', from_version: '2.4.0', target_version: '2.5.0' });

    const command = await commandOf(update.id);
    expect(command.name).toBe('update_firmware');
    const params = command.params as Record<string, unknown>;
    expect(params).toMatchObject({
      update_id: update.id,
      version: '2.5.0',
      file_name: 'flowbox-one_inch_v1-2.5.0.bin',
      size: 2048,
      sha256: image.sha256,
    });
    const token = String(params.url).replace('http://flowbox.test/v1/firmware/download/', '');
    expect(verifyDownloadToken(token, t.services.context.config.jwtSecret, t.clock.now())).toMatchObject({
      serial,
      imageId: image.id,
      updateId: update.id,
    });
    // Not an API command: the flowbox's command list does not show it.
    const list = await provider.get(flowboxUrl(flowboxId).replace('/firmware', '/commands/list'));
    expect(list.statusCode).toBe(200);
    expect(JSON.stringify(list.json())).not.toContain(command.id);

    const counted = { ...t.services.firmwareUpdates.counters };
    await device.ack(command.id, 'accepted');
    await device.progress(update.id, '2.5.0', 'requesting');
    expect(await recordDownloadStart(t.db, update.id, 0, t.clock.now())).toBe(true);
    await device.progress(update.id, '2.5.0', 'started', { progress_pct: 0, bytes: 0 });
    await device.progress(update.id, '2.5.0', 'started', { progress_pct: 50, bytes: 1024 });
    expect(await updateRow(update.id)).toMatchObject({ state: 'started', progressPct: 50, bytes: 1024 });
    await device.progress(update.id, '2.5.0', 'downloaded', { progress_pct: 100, bytes: 2048 });
    await device.presence('offline');
    await device.presence('online');
    await device.state('2.5.0');
    await device.progress(update.id, '2.5.0', 'success', { progress_pct: 100 });
    await device.ack(command.id, 'done');

    expect(await updateRow(update.id)).toMatchObject({ state: 'success', reason: null });
    expect(await stepStates(update.id)).toEqual([
      'requested',
      'requesting',
      'started',
      'downloaded',
      'success',
    ]);
    const [fb] = await t.db.select().from(flowboxes).where(eq(flowboxes.id, flowboxId));
    expect(fb!.firmwareVersion).toBe('2.5.0');
    expect((await commandOf(update.id)).status).toBe('done');
    // The device's `success` after its state with the new version confirms what the server decided:
    // counted as such, not applied twice, and not late (the normal end of every update).
    const delta = Object.fromEntries(
      Object.entries(t.services.firmwareUpdates.counters).map(([k, v]) => [
        k,
        v - counted[k as keyof typeof counted],
      ]),
    );
    expect(delta).toEqual({
      moved: 3,
      progress: 1,
      confirmed: 1,
      late: 0,
      out_of_order: 0,
      unknown_update: 0,
    });
    const lines = await t.db
      .select()
      .from(events)
      .where(and(eq(events.objectId, flowboxId), eq(events.actionName, 'firmware_update')))
      .orderBy(events.createdAt);
    // The log says who asked and how it ended; the steps between are the update's history (issue 30).
    expect(lines.map((l) => [l.changedFields[0], l.origin])).toEqual([
      ['requested', 'web'],
      ['success', 'device'],
    ]);
    const card = (await provider.get(flowboxUrl(flowboxId))).json<FlowboxFirmware>();
    expect(card.versions.firmware).toBe('2.5.0');
    expect(card.current).toBeNull();
    expect(card.history[0]!.steps.map((s) => s.state)).toEqual([
      'requested',
      'requesting',
      'started',
      'downloaded',
      'success',
    ]);
    expect(card.compatible.map((i) => i.version)).not.toContain('2.5.0');
  });

  it('counts a message about an update already ended otherwise as late, and each outcome in /metrics', async () => {
    const image = await insertImage(t.db, { version: '2.5.9' });
    const { flowboxId, device } = await connectedFlowbox();
    const update = await requestUpdate(flowboxId, image.id);
    await device.progress(update.id, '2.5.9', 'started', { progress_pct: 10 });
    await device.progress(update.id, '2.5.9', 'failed', { reason: 'install_failed' });
    const before = { ...t.services.firmwareUpdates.counters };
    // After its failure, the device still reports a download and a success: both late.
    await device.progress(update.id, '2.5.9', 'started', { progress_pct: 20 });
    await device.progress(update.id, '2.5.9', 'success', { progress_pct: 100 });
    // Its failure told twice confirms it; a message about an update it never had is unknown.
    await device.progress(update.id, '2.5.9', 'failed', { reason: 'install_failed' });
    await device.progress(update.id, '2.5.8', 'started', { progress_pct: 5 });
    const after = t.services.firmwareUpdates.counters;
    expect(after.late - before.late).toBe(2);
    expect(after.confirmed - before.confirmed).toBe(1);
    expect(after.unknown_update - before.unknown_update).toBe(1);
    expect(await updateRow(update.id)).toMatchObject({ state: 'failed', reason: 'install_failed' });

    const scrape = await t.services.metrics.scrape();
    const value = (outcome: string) =>
      Number(
        new RegExp(`^flowbox_firmware_device_messages_total\\{outcome="${outcome}"\\} (\\d+)`, 'm').exec(
          scrape,
        )?.[1],
      );
    for (const outcome of [
      'moved',
      'progress',
      'confirmed',
      'late',
      'out_of_order',
      'unknown_update',
    ] as const)
      expect(value(outcome), outcome).toBe(after[outcome]);
  });

  it("ignores a device reporting on another device's update: counted as unknown, the update unmoved", async () => {
    const image = await insertImage(t.db, { version: '2.5.2' });
    const { flowboxId } = await connectedFlowbox();
    const intruder = await connectedFlowbox();
    const update = await requestUpdate(flowboxId, image.id);
    const before = t.services.firmwareUpdates.counters.unknown_update;
    await intruder.device.progress(update.id, '2.5.2', 'failed', { reason: 'install_failed' });
    await intruder.device.progress(update.id, '2.5.2', 'success', { progress_pct: 100 });
    expect(t.services.firmwareUpdates.counters.unknown_update).toBe(before + 2);
    expect(await updateRow(update.id)).toMatchObject({ state: 'requested', reason: null, finishedAt: null });
    expect(await stepStates(update.id)).toEqual(['requested']);
  });

  it('never goes backwards: an older state after a newer one is counted and ignored', async () => {
    const image = await insertImage(t.db, { version: '2.5.1' });
    const { flowboxId, device } = await connectedFlowbox();
    const update = await requestUpdate(flowboxId, image.id);
    await device.progress(update.id, '2.5.1', 'downloaded', { progress_pct: 100 });
    const before = t.services.firmwareUpdates.counters.out_of_order;
    await device.progress(update.id, '2.5.1', 'started', { progress_pct: 40 });
    expect((await updateRow(update.id)).state).toBe('downloaded');
    expect(t.services.firmwareUpdates.counters.out_of_order).toBe(before + 1);
  });

  it('takes a requesting during started as the device starting over, and keeps why the download was blocked', async () => {
    const image = await insertImage(t.db, { version: '2.5.6' });
    const { flowboxId, device } = await connectedFlowbox();
    const update = await requestUpdate(flowboxId, image.id);
    await device.progress(update.id, '2.5.6', 'requesting');
    await device.progress(update.id, '2.5.6', 'started', { progress_pct: 100, bytes: 2048 });
    const before = t.services.firmwareUpdates.counters.out_of_order;
    // The image did not match its checksum: the device downloads it again from byte 0.
    await device.progress(update.id, '2.5.6', 'requesting');
    expect(t.services.firmwareUpdates.counters.out_of_order).toBe(before);
    expect(await updateRow(update.id)).toMatchObject({ state: 'started', progressPct: null });
    await device.progress(update.id, '2.5.6', 'block_download_failed', { reason: 'checksum_mismatch' });
    expect(await updateRow(update.id)).toMatchObject({
      state: 'block_download_failed',
      reason: 'checksum_mismatch',
    });
    expect(await stepStates(update.id)).toEqual([
      'requested',
      'requesting',
      'started',
      'block_download_failed:checksum_mismatch',
    ]);
  });

  it('reports a rollback as failed (rolled_back) when the rebooted device shows its old version', async () => {
    const image = await insertImage(t.db, { version: '2.5.2' });
    const { flowboxId, device } = await connectedFlowbox();
    const update = await requestUpdate(flowboxId, image.id);
    await device.progress(update.id, '2.5.2', 'started', { progress_pct: 10 });
    await device.progress(update.id, '2.5.2', 'downloaded', { progress_pct: 100 });
    // A state before the reboot still shows the old version: the install has not happened yet.
    await device.state('2.4.0');
    expect((await updateRow(update.id)).state).toBe('downloaded');
    await device.presence('offline');
    await device.presence('online');
    await device.state('2.4.0');
    expect(await updateRow(update.id)).toMatchObject({ state: 'failed', reason: 'rolled_back' });
    const [alert] = await t.db
      .select()
      .from(alerts)
      .where(eq(alerts.cause, `firmware_update_failed:${flowboxId}`));
    expect(alert).toMatchObject({ category: 'flowbox_internal_status' });
    const [fb] = await t.db.select().from(flowboxes).where(eq(flowboxes.id, flowboxId));
    expect(fb!.firmwareVersion).toBe('2.4.0');
  });

  it('fails (refused) when the device refuses the command', async () => {
    const image = await insertImage(t.db, { version: '2.5.3' });
    const { flowboxId, device } = await connectedFlowbox();
    const update = await requestUpdate(flowboxId, image.id);
    await device.ack((await commandOf(update.id)).id, 'refused', 'busy');
    expect(await updateRow(update.id)).toMatchObject({ state: 'failed', reason: 'refused' });
  });

  it('times out without an answer within the command TTL, and after downloaded without success', async () => {
    const image = await insertImage(t.db, { version: '2.5.4' });
    const silent = await connectedFlowbox();
    const installing = await connectedFlowbox();
    const first = await requestUpdate(silent.flowboxId, image.id);
    const second = await requestUpdate(installing.flowboxId, image.id);
    await installing.device.progress(second.id, '2.5.4', 'downloaded', { progress_pct: 100 });
    t.clock.advance((FIRMWARE_COMMAND_TTL_S + 1) * 1000);
    await t.services.firmwareUpdates.timeOutSilent();
    expect((await updateRow(first.id)).state).toBe('timeout');
    expect((await updateRow(second.id)).state).toBe('downloaded');
    t.clock.advance(FIRMWARE_INSTALL_TIMEOUT_S * 1000);
    await t.services.firmwareUpdates.timeOutSilent();
    expect((await updateRow(second.id)).state).toBe('timeout');
    const [line] = await t.db
      .select()
      .from(events)
      .where(and(eq(events.objectId, silent.flowboxId), eq(events.actionName, 'firmware_update')))
      .orderBy(events.createdAt)
      .offset(1);
    expect(line).toMatchObject({ origin: 'system', changedFields: ['timeout', '2.5.4'] });
  });

  it('blocks the download after too many attempts (block_download_failed), and refuses further ones', async () => {
    const image = await insertImage(t.db, { version: '2.5.5' });
    const { flowboxId, serial } = await connectedFlowbox();
    const update = await requestUpdate(flowboxId, image.id);
    expect(await findUpdateForDownload(t.db, update.id)).toMatchObject({
      serial,
      state: 'requested',
      fileId: image.fileId,
      pairingState: 'ready',
    });
    for (let i = 0; i < FIRMWARE_DOWNLOAD_ATTEMPTS; i++)
      expect(await recordDownloadStart(t.db, update.id, i * 100, t.clock.now())).toBe(true);
    expect(await recordDownloadStart(t.db, update.id, 600, t.clock.now())).toBe(false);
    expect(await updateRow(update.id)).toMatchObject({ state: 'block_download_failed', downloadAttempts: 6 });
    expect(await recordDownloadStart(t.db, update.id, 0, t.clock.now())).toBe(false);
  });
});

describe("a flowbox's firmware card", () => {
  it('counts the flowboxes on each compatible image within the reader’s scope, as the catalogue does', async () => {
    // A second site of the same customer, out of a site manager's reach, where one flowbox already
    // runs the image's version; and a customer of its own with another.
    const version = '3.9.0';
    const image = await insertImage(t.db, { version });
    const [other] = await t.db
      .insert(sites)
      .values({ customerId: zone.customerId, name: 'Other site' })
      .returning();
    const [otherBuilding] = await t.db
      .insert(buildings)
      .values({
        siteId: other!.id,
        name: 'Other building',
        type: 'factory',
        weekend: ['saturday', 'sunday'],
        address: '1 rue de la Paix',
        city: 'Paris',
        zipCode: '75002',
        country: 'FR',
        timezone: 'Europe/Paris',
        volumeUnit: 'liter',
        currency: 'EUR',
        firstDayOfWeek: 'monday',
      })
      .returning();
    const [otherZone] = await t.db
      .insert(zones)
      .values({
        buildingId: otherBuilding!.id,
        name: 'Other zone',
        profile: 'office',
        flowboxModel: 'one_inch_v1',
        waterTemperature: 'cold',
      })
      .returning();
    const elsewhere = await pairDirectly(t.db, {
      ...zone,
      siteId: other!.id,
      buildingId: otherBuilding!.id,
      zoneId: otherZone!.id,
    });
    await t.db
      .update(flowboxes)
      .set({ model: 'one_inch_v1', firmwareVersion: version })
      .where(eq(flowboxes.id, elsewhere.flowboxId));
    const [foreign] = (await createZones(t.db, 'Europe/Paris')) as [TelemetryZone];
    const abroad = await pairDirectly(t.db, foreign);
    await t.db
      .update(flowboxes)
      .set({ model: 'one_inch_v1', firmwareVersion: version })
      .where(eq(flowboxes.id, abroad.flowboxId));
    const { flowboxId } = await connectedFlowbox();

    await createUser(t.db, {
      email: 'fw.site@test.io',
      role: ROLES.site_manager,
      customerId: zone.customerId,
      siteIds: [zone.siteId],
    });
    const siteManager = await loginAs(t.app, 'fw.site@test.io');
    for (const reader of [provider, siteManager]) {
      const card = await reader.get(flowboxUrl(flowboxId));
      expect(card.statusCode, card.body).toBe(200);
      const offered = card.json<FlowboxFirmware>().compatible.find((i) => i.id === image.id);
      const catalogue = await reader.get(`/v1/firmware/images/${image.id}`);
      expect(catalogue.statusCode, catalogue.body).toBe(200);
      expect(offered?.installed_count).toBe(catalogue.json<{ installed_count: number }>().installed_count);
    }
    const asSiteManager = (await siteManager.get(flowboxUrl(flowboxId))).json<FlowboxFirmware>();
    expect(asSiteManager.compatible.find((i) => i.id === image.id)?.installed_count).toBe(0);
  });

  it('costs the same few statements whatever the size of the catalogue', async () => {
    const { flowboxId } = await connectedFlowbox();
    const read = async () => {
      const res = await provider.get(flowboxUrl(flowboxId));
      expect(res.statusCode, res.body).toBe(200);
    };
    await insertImage(t.db, { version: '3.10.0' });
    await read(); // the session's first call reads what later ones find cached
    const few = await statementsDuring(t.db, read);
    for (let i = 1; i <= 20; i++)
      await insertImage(t.db, { version: `3.10.${i}`, ...(i % 2 ? { customers: [zone.customerId] } : {}) });
    const many = await statementsDuring(t.db, read);
    expect(many.length).toBe(few.length);
  });
});

describe('a single update is refused', () => {
  it('for a withdrawn image, an image not released to the customer, another model, a running update', async () => {
    const { flowboxId } = await connectedFlowbox();
    const withdrawn = await insertImage(t.db, { version: '3.0.0', status: 'withdrawn' });
    const otherCustomer = await insertImage(t.db, { version: '3.0.1', customers: [] });
    const otherModel = await insertImage(t.db, { version: '3.0.2', models: ['two_inches_v1'] });
    const good = await insertImage(t.db, { version: '3.0.3' });
    const post = (imageId: string) => provider.post(flowboxUrl(flowboxId), { image_id: imageId });
    expect((await post(withdrawn.id)).json()).toMatchObject({ code: 'errors.firmware_withdrawn' });
    expect((await post(otherCustomer.id)).statusCode).toBe(403);
    expect((await post(otherModel.id)).json()).toMatchObject({ code: 'errors.firmware_incompatible' });
    expect((await post(good.id)).statusCode).toBe(201);
    const again = await post(good.id);
    expect([again.statusCode, again.json().code]).toEqual([409, 'errors.firmware_update_running']);
  });

  it('while the zone is locked, a valve command is pending, or the flowbox is not paired', async () => {
    const image = await insertImage(t.db, { version: '3.1.0' });
    const { flowboxId } = await connectedFlowbox();
    const post = () => provider.post(flowboxUrl(flowboxId), { image_id: image.id });
    await t.db.insert(zoneAutomation).values({ zoneId: zone.zoneId, lockedAt: new Date() });
    expect((await post()).json()).toMatchObject({ code: 'errors.firmware_zone_locked' });
    await t.db.delete(zoneAutomation).where(eq(zoneAutomation.zoneId, zone.zoneId));
    const now = t.clock.now();
    await t.db.insert(deviceCommands).values({
      flowboxId,
      name: 'valve_close',
      origin: 'web',
      issuedAt: now,
      expiresAt: new Date(now.getTime() + 60_000),
      nextAttemptAt: new Date(now.getTime() + 60_000),
      status: 'sent',
    });
    expect((await post()).json()).toMatchObject({ code: 'errors.valve_command_pending' });
    await t.db.update(flowboxes).set({ pairingState: 'pending' }).where(eq(flowboxes.id, flowboxId));
    expect((await post()).json()).toMatchObject({ code: 'errors.flowbox_not_ready' });
  });

  it('during its building’s opening hours, unless the user asks for it even then', async () => {
    const [open] = (await createZones(t.db, 'Europe/Paris')) as [TelemetryZone];
    const allDay = [{ start: '00:00', end: '24:00' }];
    await t.db
      .update(buildings)
      .set({
        openingHours: {
          monday: allDay,
          tuesday: allDay,
          wednesday: allDay,
          thursday: allDay,
          friday: allDay,
          saturday: allDay,
          sunday: allDay,
        },
      })
      .where(eq(buildings.id, open.buildingId));
    const paired = await pairDirectly(t.db, open);
    await setDevice(t.db, paired.flowboxId);
    const image = await insertImage(t.db, { version: '3.2.0' });
    const url = `/v1/customers/${open.customerId}/sites/${open.siteId}/buildings/${open.buildingId}/zones/${open.zoneId}/flowboxes/${paired.flowboxId}/firmware`;
    const refused = await provider.post(url, { image_id: image.id });
    expect([refused.statusCode, refused.json().code]).toEqual([409, 'errors.firmware_opening_hours']);
    const stored = await t.db
      .select()
      .from(firmwareUpdates)
      .where(eq(firmwareUpdates.flowboxId, paired.flowboxId));
    expect(stored).toEqual([]);
    const forced = await provider.post(url, { image_id: image.id, during_opening_hours: true });
    expect(forced.statusCode, forced.body).toBe(201);
    expect(forced.json<FirmwareUpdate>()).toMatchObject({ state: 'requested', target_version: '3.2.0' });
  });
});

describe('an image withdrawn while it is asked for', () => {
  // Two instances share one PostgreSQL: a withdrawal in flight when an update or a rollout is asked
  // for must be waited for, not read past (PGlite runs one transaction at a time: nothing races).
  it.skipIf(!process.env.FLOWBOX_TEST_PG)(
    'refuses the update and the rollout once the withdrawal commits, and starts nothing',
    async () => {
      const lockWaiters = async () => {
        const query = sql`SELECT count(*)::int AS n FROM pg_stat_activity
                          WHERE wait_event_type = 'Lock' AND datname = current_database()`;
        return ((await t.db.execute(query)) as unknown as { rows: { n: number }[] }).rows[0]!.n;
      };
      const { flowboxId } = await connectedFlowbox();
      const place = {
        customer_id: zone.customerId,
        site_id: zone.siteId,
        building_id: zone.buildingId,
        zone_id: zone.zoneId,
      };
      const asks = [
        (imageId: string) => provider.post(flowboxUrl(flowboxId), { image_id: imageId }),
        (imageId: string) =>
          provider.post('/v1/firmware/rollouts', {
            image_id: imageId,
            target: place,
            during_opening_hours: true,
          }),
      ];
      for (const [n, ask] of asks.entries()) {
        const image = await insertImage(t.db, { version: `3.3.${n}` });
        let commit!: () => void;
        const committing = new Promise<void>((resolve) => (commit = resolve));
        let inFlight!: () => void;
        const withdrawing = new Promise<void>((resolve) => (inFlight = resolve));
        const withdrawal = t.db.transaction(async (tx) => {
          await tx.update(firmwareImages).set({ status: 'withdrawn' }).where(eq(firmwareImages.id, image.id));
          inFlight();
          await committing;
        });
        await withdrawing;
        const asked = ask(image.id);
        await Promise.race([
          asked,
          vi.waitFor(async () => expect(await lockWaiters()).toBe(1), { timeout: 10_000, interval: 50 }),
        ]);
        commit();
        await withdrawal;
        const res = await asked;
        expect([res.statusCode, res.json().code], res.body).toEqual([409, 'errors.firmware_withdrawn']);
        const started = await t.db
          .select()
          .from(firmwareUpdates)
          .where(eq(firmwareUpdates.imageId, image.id));
        expect(started).toEqual([]);
      }
    },
  );
});

describe('a download URL', () => {
  it(`lives FIRMWARE_URL_TTL_S from its command: a resume within works, then 410 and the update times out`, async () => {
    // Short-lived: an old URL (in a log, a proxy) opens nothing (docs/firmware.md "Device protocol").
    expect(FIRMWARE_URL_TTL_S).toBeLessThanOrEqual(3600);
    const image = await insertImage(t.db, { version: '3.3.0' });
    const { flowboxId, serial, password, device } = await connectedFlowbox();
    const update = await requestUpdate(flowboxId, image.id);
    const command = await commandOf(update.id);
    const url = String((command.params as { url: string }).url).replace('http://flowbox.test', '');
    const token = url.slice(url.lastIndexOf('/') + 1);
    const claims = verifyDownloadToken(token, t.services.context.config.jwtSecret, t.clock.now());
    // (The token carries whole seconds.)
    const lifetime = claims!.expiresAt.getTime() - command.issuedAt.getTime();
    expect(lifetime).toBeGreaterThan((FIRMWARE_URL_TTL_S - 1) * 1000);
    expect(lifetime).toBeLessThanOrEqual(FIRMWARE_URL_TTL_S * 1000);
    const get = (range?: string) =>
      t.app.inject({
        method: 'GET',
        url,
        headers: {
          authorization: `Basic ${Buffer.from(`${serial}:${password}`).toString('base64')}`,
          ...(range ? { range } : {}),
        },
      });
    await device.ack(command.id, 'accepted');
    await device.progress(update.id, '3.3.0', 'requesting');
    expect((await get()).statusCode).toBe(200);
    // A slow link: the device reports progress every five minutes, and resumes near the hour's end.
    const minutes = Math.floor(FIRMWARE_URL_TTL_S / 60) - 5;
    for (let minute = 5; minute <= minutes; minute += 5) {
      t.clock.advance(300_000);
      await device.progress(update.id, '3.3.0', 'started', { progress_pct: minute, bytes: minute * 10 });
    }
    await t.services.firmwareUpdates.timeOutSilent();
    expect((await updateRow(update.id)).state).toBe('started');
    expect((await get('bytes=1000-')).statusCode).toBe(206);
    // Past its lifetime the URL is over, and so is the update, though the device still talks.
    t.clock.advance(6 * 60_000);
    await device.progress(update.id, '3.3.0', 'started', { progress_pct: 70, bytes: 1400 });
    const late = await get('bytes=1400-');
    expect([late.statusCode, late.json().code]).toEqual([410, 'errors.firmware_download_gone']);
    await t.services.firmwareUpdates.timeOutSilent();
    expect(await updateRow(update.id)).toMatchObject({ state: 'timeout' });
  });
});
