import { FIRMWARE_COMMAND_TTL_S, PROTOCOL_VERSION, type FirmwareUpdate, type Rollout } from '@flowbox/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AlertNotifier } from '../alerts/notifier.ts';
import { emails, firmwareUpdates, flowboxes } from '../db/schema.ts';
import { findFlowboxById } from '../flowboxes/index.ts';
import {
  buildingBody,
  createWorldApp,
  zoneBody,
  type ApiClient,
  type TestApp,
  type World,
} from '../test/harness.ts';
import { insertImage } from './testing.ts';

/*
 * docs/firmware.md "Alerts": a device's update that fails or times out, and a rollout that halts,
 * raise a flowbox_internal_status alert whose email the alert job queues as the alert email
 * settings say (docs/alerts.md "Emails"): to the customer's and the site's managers, not to another
 * customer; nothing when the category's email is turned off.
 */

let t: TestApp;
let w: World;
let provider: ApiClient;
let cmA: ApiClient;
let place: { site: string; buildingId: string; zoneId: string };
let serials = 0;

beforeAll(async () => {
  ({ t, w, provider, cmA } = await createWorldApp());
  const site = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
  const buildingId = (await cmA.post(`${site}/buildings/create`, buildingBody())).json<{ id: string }>().id;
  const zoneId = (
    await cmA.post(`${site}/buildings/${buildingId}/zones/create`, zoneBody({ name: 'Washroom' }))
  ).json<{ id: string }>().id;
  place = { site, buildingId, zoneId };
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.delete(emails);
});

const notifier = () =>
  new AlertNotifier(t.services.context, {
    escalationIntervalMs: 30 * 60_000,
    communicationTimeoutMs: 600_000,
  });
const alertEmails = () => t.db.select().from(emails).where(eq(emails.kind, 'alert'));

/** A connected one-inch flowbox on 2.4.0 in the zone. */
async function flowbox(): Promise<string> {
  serials += 1;
  const [row] = await t.db
    .insert(flowboxes)
    .values({
      serial: `MAIL-${String(serials).padStart(4, '0')}`,
      zoneId: place.zoneId,
      pairingState: 'ready',
      model: 'one_inch_v1',
      firmwareVersion: '2.4.0',
      connected: true,
      connectionChangedAt: new Date(Date.now() - 3_600_000),
      lastSeenAt: new Date(),
    })
    .returning();
  return row!.id;
}

async function requestUpdate(flowboxId: string, imageId: string): Promise<FirmwareUpdate> {
  const res = await provider.post(
    `${place.site}/buildings/${place.buildingId}/zones/${place.zoneId}/flowboxes/${flowboxId}/firmware`,
    { image_id: imageId },
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json<FirmwareUpdate>();
}

/** The device says its update failed, through the firmware domain's device path. */
async function deviceFails(flowboxId: string, updateId: string, version: string): Promise<void> {
  await t.db.transaction(async (tx) => {
    const located = await findFlowboxById(tx, flowboxId);
    await t.services.firmwareUpdates.listener().progress(
      tx,
      located!,
      {
        v: PROTOCOL_VERSION,
        seq: 1,
        at: t.clock.now().toISOString(),
        type: 'firmware_progress',
        update_id: updateId,
        state: 'failed',
        version,
        progress_pct: null,
        reason: 'install_failed',
      },
      t.clock.now(),
    );
  });
}

function expectRecipients(sent: { to: string }[]) {
  const to = sent.map((e) => e.to);
  expect(to).toContain('cm.a@test.io');
  expect(to).toContain('sm.a@test.io');
  expect(to).not.toContain('cm.b@test.io');
  expect(to).not.toContain('provider@test.io');
}

describe('firmware alert emails', () => {
  it('are queued when a device’s update fails, naming the version', async () => {
    const image = await insertImage(t.db, { version: '6.0.0' });
    const id = await flowbox();
    const update = await requestUpdate(id, image.id);
    await deviceFails(id, update.id, '6.0.0');
    expect(await notifier().runDue()).toBe(1);
    const sent = await alertEmails();
    expectRecipients(sent);
    const en = sent.find((e) => e.to === 'cm.a@test.io')!;
    expect(en.subject).toMatch(/^Flowbox alert: /);
    expect(en.text).toContain('6.0.0');
    expect(en.text).toContain('MAIL-0001');
  });

  it('are queued when a device’s update times out', async () => {
    const image = await insertImage(t.db, { version: '6.0.1' });
    const id = await flowbox();
    const update = await requestUpdate(id, image.id);
    t.clock.advance((FIRMWARE_COMMAND_TTL_S + 1) * 1000);
    expect(await t.services.firmwareUpdates.timeOutSilent()).toBe(1);
    const [row] = await t.db.select().from(firmwareUpdates).where(eq(firmwareUpdates.id, update.id));
    expect(row!.state).toBe('timeout');
    expect(await notifier().runDue()).toBe(1);
    const sent = await alertEmails();
    expectRecipients(sent);
    expect(sent.find((e) => e.to === 'cm.a@test.io')!.text).toContain('6.0.1');
  });

  it('are queued when a rollout halts: one for the failed device, one for the halt naming the rollout', async () => {
    const image = await insertImage(t.db, { version: '6.0.2' });
    const id = await flowbox();
    // Only this flowbox is left on 2.4.0 without an update running: the rollout is its alone.
    const res = await provider.post('/v1/firmware/rollouts', {
      image_id: image.id,
      target: {
        customer_id: w.customers.a.id,
        site_id: w.sites.a1.id,
        building_id: place.buildingId,
        zone_id: place.zoneId,
      },
      models: ['one_inch_v1'],
      from_versions: ['2.4.0'],
      waves_pct: [100],
      start_jitter_s: 0,
      during_opening_hours: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    const rollout = res.json<Rollout>();
    await t.services.rolloutRunner.advanceAll();
    const [update] = await t.db
      .select()
      .from(firmwareUpdates)
      .where(and(eq(firmwareUpdates.rolloutId, rollout.id), eq(firmwareUpdates.flowboxId, id)));
    expect(update!.state).toBe('requested');
    await deviceFails(id, update!.id, '6.0.2');
    expect((await provider.get(`/v1/firmware/rollouts/${rollout.id}`)).json<Rollout>()).toMatchObject({
      state: 'halted',
      halt_reason: 'failure_threshold',
    });
    expect(await notifier().runDue()).toBe(2);
    const sent = await alertEmails();
    expectRecipients(sent);
    const toManager = sent.filter((e) => e.to === 'cm.a@test.io');
    expect(toManager).toHaveLength(2);
    const halt = toManager.find((e) => e.text.includes('firmware rollout of version 6.0.2'));
    expect(halt?.text).toContain('Customer A › A site 1 › Main building › Washroom) halted');
  });

  it('are not queued when a provider manager turned the category’s email off', async () => {
    expect(
      (await provider.put('/v1/alerts/settings/flowbox_internal_status/update', { email: false })).statusCode,
    ).toBe(200);
    try {
      const image = await insertImage(t.db, { version: '6.0.3' });
      const id = await flowbox();
      const update = await requestUpdate(id, image.id);
      await deviceFails(id, update.id, '6.0.3');
      expect(await notifier().runDue()).toBe(1);
      expect(await alertEmails()).toHaveLength(0);
    } finally {
      await provider.put('/v1/alerts/settings/flowbox_internal_status/update', { email: true });
    }
  });
});
