import { deviceTopic, encodePayload, PushAlertPayloadSchema } from '@flowbox/shared';
import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { alerts, pushMessages } from '../db/schema.ts';
import { startMessaging, until } from '../flowboxes/testing.ts';
import { pairDirectly, reading } from '../telemetry/testing.ts';
import {
  buildingBody,
  createTestApp,
  createWorld,
  loginAs,
  zoneBody,
  type TestApp,
} from '../test/harness.ts';
import { decryptPush, TestPushService, testBrowser } from './push.testing.ts';

/*
 * From the device to the phone (issue 33, docs/push.md): a flowbox's reading past the zone's volume
 * margin closes the water, and the customer manager's browser is told, through the alert's
 * notification alone: no pass is run by the test.
 */

let t: TestApp;
let service: TestPushService;
let messaging: Awaited<ReturnType<typeof startMessaging>>;

beforeAll(async () => {
  service = await new TestPushService().start();
  t = await createTestApp({ accessTokenTtl: 86_400 });
  messaging = await startMessaging(t);
});
afterAll(async () => {
  await messaging.close();
  await t.close();
  await service.stop();
});

it('a reading past the volume margin closes the water and reaches the browser, reading → notification sent recorded', async () => {
  const w = await createWorld(t.db);
  const cmA = await loginAs(t.app, 'cm.a@test.io');
  const site = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
  const building = (await cmA.post(`${site}/buildings/create`, buildingBody({ volume_unit: 'liter' }))).json<{
    id: string;
  }>().id;
  const zone = (
    await cmA.post(
      `${site}/buildings/${building}/zones/create`,
      zoneBody({ name: 'Flat 4', profile: 'office' }),
    )
  ).json<{ id: string }>().id;
  const zonePath = `${site}/buildings/${building}/zones/${zone}`;
  const settings = {
    automatic_closing_enabled: true,
    volume_margin_enabled: true,
    volume_margin: 100,
    duration_margin_enabled: true,
    duration_margin_minutes: 30,
  };
  expect((await cmA.put(`${zonePath}/automation/update`, settings)).statusCode).toBe(200);
  const browser = testBrowser(service.endpoint('flat-4'));
  expect((await cmA.post('/v1/push/subscriptions', browser.subscription)).statusCode).toBe(201);

  const device = await pairDirectly(t.db, {
    customerId: w.customers.a.id,
    siteId: w.sites.a1.id,
    buildingId: building,
    zoneId: zone,
  });
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${messaging.port}`, {
    username: device.serial,
    password: device.password,
    clientId: device.serial,
    reconnectPeriod: 0,
  });
  try {
    // 40 L a minute: the third minute's reading crosses the 100 L margin.
    for (let seq = 1; seq <= 3; seq++) {
      t.clock.advance(60_000);
      const message = { ...reading(seq, t.clock.now(), 40), flow_s: 60 };
      await client.publishAsync(deviceTopic(device.serial, 'telemetry'), encodePayload(message), { qos: 1 });
    }
    await until(() => service.requests.length === 1, 10_000);
  } finally {
    await client.endAsync(true);
  }
  const payload = PushAlertPayloadSchema.parse(JSON.parse(decryptPush(browser, service.requests[0]!.body)));
  expect(payload).toMatchObject({
    category: 'abnormal_water_consumption_with_ac',
    zone: { id: zone, name: 'Flat 4' },
    title: 'Abnormal water consumption: water closed automatically',
  });
  const [alert] = await t.db.select().from(alerts).where(eq(alerts.zoneId, zone));
  expect(payload.alert_id).toBe(alert!.id);
  await until(
    async () =>
      (await t.db.select().from(pushMessages).where(eq(pushMessages.alertId, alert!.id)))[0]?.sentAt,
  );
  const [message] = await t.db.select().from(pushMessages).where(eq(pushMessages.alertId, alert!.id));
  expect(message!.readingAt).toEqual(alert!.openedAt);
  expect(message!.sentAt!.getTime()).toBeGreaterThanOrEqual(alert!.openedAt.getTime());
  expect(await t.services.metrics.scrape()).toMatch(/flowbox_alert_push_latency_seconds_count 1/);
});
