import type { Webhook, WebhookDeliveriesPage, WebhookDelivery as ApiDelivery } from '@flowbox/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { emails, events, webhookDeliveries, webhooks } from '../db/schema.ts';
import { recordEvent } from '../events/index.ts';
import { until } from '../flowboxes/testing.ts';
import { startJobs } from '../jobs/registry.ts';
import {
  buildingBody,
  createTestApp,
  createWorld,
  loginAs,
  openTestDatabase,
  testConfig,
  TestClock,
  zoneBody,
  type ApiClient,
  type TestApp,
  type World,
} from '../test/harness.ts';
import { makeActor } from '../access/access.ts';
import { webhookSignature } from './signature.ts';
import { savableAddress, sendableAddress, type LookupAll } from './webhook-address.ts';
import { webhookDeliveriesJob } from './webhook-deliveries.job.ts';
import { WEBHOOK_DELIVERY, WebhookDelivery } from './webhook-delivery.service.ts';
import { WebhooksService } from './webhooks.service.ts';
import { TestReceiver, verifySignature } from './webhooks.testing.ts';

/*
 * Webhooks of a customer (issue 33, docs/webhooks.md): the calls that manage them, and what
 * happens to alerts and valves POSTed to a receiver on loopback that checks every signature itself
 * (webhooks.testing.ts: node:crypto, none of the server's code). Retries run on the injected clock.
 */

type Created = Webhook & { secret: string };

describe('webhook addresses', () => {
  it('are public: never the machine, private, shared, link-local, multicast, reserved or unspecified', () => {
    const production = { testEndpoints: false };
    for (const address of ['93.184.215.14', '8.8.8.8', '2606:4700::1111', '::ffff:808:808'])
      expect(savableAddress(address, production) && sendableAddress(address, production), address).toBe(true);
    for (const address of [
      '127.0.0.1',
      '127.255.0.9',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.254',
      '192.168.1.10',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fd00::1',
      'fc00::1',
      'fe80::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::a00:1',
    ])
      expect(savableAddress(address, production) || sendableAddress(address, production), address).toBe(
        false,
      );
    // The test-only door: loopback may be saved, and is all that is ever sent to.
    const tests = { testEndpoints: true };
    expect(savableAddress('127.0.0.1', tests) && sendableAddress('127.0.0.1', tests)).toBe(true);
    expect(savableAddress('93.184.215.14', tests)).toBe(true);
    expect(sendableAddress('93.184.215.14', tests)).toBe(false);
    expect(savableAddress('10.1.2.3', tests) || savableAddress('169.254.169.254', tests)).toBe(false);
  });

  it('are signed as docs/webhooks.md tells a receiver to check', () => {
    const header = webhookSignature('whsec_test', 1_800_000_000, '{"a":1}');
    expect(verifySignature(header, '{"a":1}', 'whsec_test', 1_800_000_000 + 299)).toBe(true);
    expect(verifySignature(header, '{"a":2}', 'whsec_test', 1_800_000_000)).toBe(false);
    expect(verifySignature(header, '{"a":1}', 'whsec_other', 1_800_000_000)).toBe(false);
    // A replay older than five minutes.
    expect(verifySignature(header, '{"a":1}', 'whsec_test', 1_800_000_000 + 301)).toBe(false);
  });
});

describe('webhooks of a customer', () => {
  let t: TestApp;
  let w: World;
  let cmA: ApiClient;
  let cmB: ApiClient;
  let smA: ApiClient;
  let provider: ApiClient;
  let receiver: TestReceiver;
  const place = { building: '', zone: '' };
  const A = () => `/v1/customers/${w.customers.a.id}/webhooks`;

  const create = async (body: Record<string, unknown> = {}): Promise<Created> => {
    const res = await cmA.post(`${A()}/create`, { url: receiver.url, events: ['alert.opened'], ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Created>();
  };
  const deliveriesOf = async (id: string) =>
    (await cmA.get(`${A()}/${id}/deliveries`)).json<WebhookDeliveriesPage>().items;
  const deliver = () => t.services.webhookDelivery.deliverDue();

  beforeAll(async () => {
    // The clock moves a day forward in a test: the sessions signed in once outlive it.
    t = await createTestApp({ accessTokenTtl: 7 * 86_400 });
    w = await createWorld(t.db);
    [cmA, cmB, smA, provider] = await Promise.all([
      loginAs(t.app, 'cm.a@test.io'),
      loginAs(t.app, 'cm.b@test.io'),
      loginAs(t.app, 'sm.a@test.io'),
      loginAs(t.app, 'provider@test.io'),
    ]);
    const site = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
    place.building = (await cmA.post(`${site}/buildings/create`, buildingBody())).json<{ id: string }>().id;
    place.zone = (await cmA.post(`${site}/buildings/${place.building}/zones/create`, zoneBody())).json<{
      id: string;
    }>().id;
    receiver = await new TestReceiver(t.clock.now).start();
  });
  afterAll(async () => {
    await t.services.webhookDelivery.idle();
    await receiver.stop();
    await t.close();
  });
  beforeEach(async () => {
    // Each test its own webhooks; what an earlier one left is gone with them.
    await t.services.webhookDelivery.idle();
    await t.db.delete(webhooks);
    receiver.requests.length = 0;
    receiver.answers.length = 0;
  });

  it('are created by a customer manager, their secret answered once, never listed, and logged', async () => {
    const created = await create({ description: 'ERP', events: ['alert.opened', 'valve.closed'] });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({
      url: receiver.url,
      enabled: true,
      events: ['alert.opened', 'valve.closed'],
    });
    const list = (await cmA.get(`${A()}/list`)).json<{ items: Webhook[] }>().items;
    expect(list).toHaveLength(1);
    expect(list[0]).not.toHaveProperty('secret');
    expect((await cmA.get(`${A()}/${created.id}/info`)).json()).not.toHaveProperty('secret');
    const [line] = await t.db
      .select()
      .from(events)
      .where(and(eq(events.objectId, created.id), eq(events.actionName, 'created')));
    expect(line).toMatchObject({ objectName: 'webhook', objectLabel: 'ERP', userId: w.users.cmA.id });
  });

  it("are the customer's managers' and the provider's: another customer's or a site manager's calls are refused", async () => {
    const created = await create();
    const item = `${A()}/${created.id}`;
    for (const client of [cmB, smA]) {
      expect((await client.get(`${A()}/list`)).statusCode).toBe(403);
      expect(
        (await client.post(`${A()}/create`, { url: receiver.url, events: ['alert.opened'] })).statusCode,
      ).toBe(403);
      expect((await client.get(`${item}/info`)).statusCode).toBe(403);
      expect((await client.put(`${item}/update`, { enabled: false })).statusCode).toBe(403);
      expect((await client.post(`${item}/rotate_secret`)).statusCode).toBe(403);
      expect((await client.post(`${item}/test`)).statusCode).toBe(403);
      expect((await client.get(`${item}/deliveries`)).statusCode).toBe(403);
      expect((await client.delete(`${item}/delete`)).statusCode).toBe(403);
    }
    // B's manager asking for A's webhook under B's own customer: not found there, refused alike.
    expect((await cmB.get(`/v1/customers/${w.customers.b.id}/webhooks/${created.id}/info`)).statusCode).toBe(
      403,
    );
    expect(
      (await provider.get(`/v1/customers/${w.customers.b.id}/webhooks/${created.id}/info`)).statusCode,
    ).toBe(404);
    expect((await provider.get(`${item}/info`)).statusCode).toBe(200);
    expect(receiver.requests).toHaveLength(0);
    expect((await t.db.select().from(webhooks))[0]).toMatchObject({ enabled: true, secret: created.secret });
  });

  it('are at most ten a customer', async () => {
    for (let i = 0; i < 10; i++) await create({ enabled: false });
    const res = await cmA.post(`${A()}/create`, { url: receiver.url, events: ['alert.opened'] });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('errors.webhook_limit');
  });

  it('tell an alert opened and resolved to the webhooks asking for it, signed, with the log line’s id', async () => {
    const hook = await create({ events: ['alert.opened', 'alert.resolved'] });
    await create({ events: ['valve.closed'] });
    receiver.secret = hook.secret;
    const raised = await t.db.transaction((tx) =>
      t.services.alerts.raise(tx, {
        category: 'flowbox_dysfunction',
        zoneId: place.zone,
        cause: 'webhook-test-1',
        details: {},
      }),
    );
    if (!raised.raised) throw new Error('no alert raised');
    // Heard on commit (the trigger's notification): no pass run by the test.
    await until(() => receiver.requests.length === 1);
    const [opened] = receiver.requests;
    expect(opened!.verified).toBe(true);
    expect(opened!.headers['content-type']).toBe('application/json');
    const [line] = await t.db
      .select()
      .from(events)
      .where(and(eq(events.objectId, raised.alert.id), eq(events.actionName, 'alert_opened')));
    expect(opened!.payload).toEqual({
      id: line!.id,
      type: 'alert.opened',
      created_at: line!.createdAt.toISOString(),
      customer_id: w.customers.a.id,
      data: expect.objectContaining({
        origin: 'system',
        place: expect.objectContaining({ zone_id: place.zone, building_id: place.building }),
        alert: expect.objectContaining({
          id: raised.alert.id,
          category: 'flowbox_dysfunction',
          state: 'open',
        }),
      }),
    });
    expect(opened!.headers['flowbox-event-id']).toBe(line!.id);

    expect((await cmA.post(`/v1/alerts/${raised.alert.id}/resolve`)).statusCode).toBe(200);
    await until(() => receiver.requests.length === 2);
    const resolved = receiver.requests[1]!;
    expect(resolved.verified).toBe(true);
    expect(resolved.payload).toMatchObject({
      type: 'alert.resolved',
      data: {
        origin: 'web',
        by: 'Cara Amanager',
        alert: { state: 'resolved', resolved_automatically: false },
      },
    });
    await until(async () => (await deliveriesOf(hook.id)).every((d) => d.status === 'delivered'));
    const log = await deliveriesOf(hook.id);
    expect(log.map((d) => [d.event_type, d.status, d.response_status, d.attempts])).toEqual([
      ['alert.resolved', 'delivered', 200, 1],
      ['alert.opened', 'delivered', 200, 1],
    ]);
  });

  it('tell valves closed and opened and automatic closing as the activity log records them', async () => {
    const hook = await create({ events: ['valve.closed', 'automatic_closing.triggered'] });
    receiver.secret = hook.secret;
    const scope = {
      customerId: w.customers.a.id,
      siteId: w.sites.a1.id,
      buildingId: place.building,
      zoneId: place.zone,
    };
    const flowboxId = '5a1d1c2e-0000-4000-8000-00000000f10b';
    await t.db.transaction(async (tx) => {
      const at = t.clock.now();
      await recordEvent(tx, at, {
        action: 'valve_closed',
        object: 'flowbox',
        objectId: flowboxId,
        objectLabel: 'FBX-HOOK-1',
        scope,
        by: null,
        origin: 'device',
      });
      // Not asked for: not told.
      await recordEvent(tx, at, {
        action: 'valve_opened',
        object: 'flowbox',
        objectId: flowboxId,
        objectLabel: 'FBX-HOOK-1',
        scope,
        by: null,
        origin: 'device',
      });
      await recordEvent(tx, at, {
        action: 'automatic_closing_triggered',
        object: 'zone',
        objectId: place.zone,
        objectLabel: 'Zone',
        scope,
        by: null,
        origin: 'system',
        changedFields: ['volume'],
      });
    });
    await until(() => receiver.requests.length === 2);
    await t.services.webhookDelivery.idle();
    expect(receiver.requests).toHaveLength(2);
    const byType = Object.fromEntries(receiver.requests.map((r) => [r.payload.type, r]));
    expect(byType['valve.closed']!.verified).toBe(true);
    expect(byType['valve.closed']!.payload.data).toMatchObject({
      origin: 'device',
      flowbox: { id: flowboxId, serial: 'FBX-HOOK-1' },
    });
    expect(byType['automatic_closing.triggered']!.payload.data).toMatchObject({
      origin: 'system',
      trigger: 'volume',
      place: { zone_id: place.zone },
    });
  });

  it('retry a receiver that fails with 5xx, waiting twice as long each time, by the injected clock', async () => {
    const hook = await create({ events: ['alert.opened'] });
    receiver.secret = hook.secret;
    receiver.answers.push(500, 503);
    expect((await cmA.post(`${A()}/${hook.id}/test`)).statusCode).toBe(202);
    await until(() => receiver.requests.length === 1);
    await t.services.webhookDelivery.idle();
    let [delivery] = await deliveriesOf(hook.id);
    expect(delivery).toMatchObject({ status: 'queued', attempts: 1, response_status: 500 });
    const firstTry = new Date(delivery!.last_attempt_at!).getTime();
    expect(new Date(delivery!.next_attempt_at!).getTime() - firstTry).toBe(WEBHOOK_DELIVERY.firstRetryMs);
    // Not due yet: nothing sent.
    await deliver();
    expect(receiver.requests).toHaveLength(1);
    t.clock.advance(WEBHOOK_DELIVERY.firstRetryMs);
    await deliver();
    expect(receiver.requests).toHaveLength(2);
    [delivery] = await deliveriesOf(hook.id);
    expect(delivery).toMatchObject({ status: 'queued', attempts: 2, response_status: 503 });
    expect(
      new Date(delivery!.next_attempt_at!).getTime() - new Date(delivery!.last_attempt_at!).getTime(),
    ).toBe(2 * WEBHOOK_DELIVERY.firstRetryMs);
    t.clock.advance(2 * WEBHOOK_DELIVERY.firstRetryMs);
    await deliver();
    [delivery] = await deliveriesOf(hook.id);
    expect(delivery).toMatchObject({
      status: 'delivered',
      attempts: 3,
      response_status: 200,
      next_attempt_at: null,
    });
    // The same event every time, each try signed anew.
    expect(receiver.requests.every((r) => r.verified)).toBe(true);
    expect(new Set(receiver.requests.map((r) => r.payload.id)).size).toBe(1);
    expect(receiver.requests[0]!.payload.type).toBe('webhook.test');
  });

  it('do not retry a 4xx, and a rotated secret signs from then on', async () => {
    const hook = await create();
    receiver.secret = hook.secret;
    receiver.answers.push(400);
    await cmA.post(`${A()}/${hook.id}/test`);
    await until(() => receiver.requests.length === 1);
    await t.services.webhookDelivery.idle();
    expect((await deliveriesOf(hook.id))[0]).toMatchObject({
      status: 'failed',
      attempts: 1,
      response_status: 400,
    });

    const rotated = (await cmA.post(`${A()}/${hook.id}/rotate_secret`)).json<Created>();
    expect(rotated.secret).not.toBe(hook.secret);
    await cmA.post(`${A()}/${hook.id}/test`);
    await until(() => receiver.requests.length === 2);
    expect(receiver.requests[1]!.verified).toBe(false);
    receiver.secret = rotated.secret;
    expect(
      verifySignature(
        receiver.requests[1]!.headers['flowbox-signature'] as string,
        receiver.requests[1]!.body,
        rotated.secret,
        Math.floor(t.clock.now().getTime() / 1000),
      ),
    ).toBe(true);
    const [line] = await t.db
      .select()
      .from(events)
      .where(and(eq(events.objectId, hook.id), eq(events.actionName, 'updated')));
    expect(line!.changedFields).toEqual(['secret']);
  });

  it('are disabled after 20 deliveries failed in a row: logged, and the customer managers emailed', async () => {
    const hook = await create();
    receiver.secret = hook.secret;
    receiver.answers.push(...Array<number>(WEBHOOK_DELIVERY.disableAfterFailures).fill(410));
    for (let i = 0; i < WEBHOOK_DELIVERY.disableAfterFailures; i++) {
      const res = await cmA.post(`${A()}/${hook.id}/test`);
      expect(res.json<ApiDelivery>().status).toBe('queued');
      await until(async () => (await deliveriesOf(hook.id)).every((d) => d.status === 'failed'));
    }
    const disabled = (await cmA.get(`${A()}/${hook.id}/info`)).json<Webhook>();
    expect(disabled).toMatchObject({ enabled: false, disabled_reason: 'failures', consecutive_failures: 20 });
    const [line] = await t.db
      .select()
      .from(events)
      .where(and(eq(events.objectId, hook.id), eq(events.origin, 'system')));
    expect(line).toMatchObject({ actionName: 'updated', changedFields: ['webhook_enabled'], userId: null });
    const sent = await t.db.select().from(emails).where(eq(emails.kind, 'webhook_disabled'));
    expect(sent.map((e) => e.to)).toEqual(['cm.a@test.io']);

    // Enabled again by its manager: its failures start afresh.
    const enabled = (await cmA.put(`${A()}/${hook.id}/update`, { enabled: true })).json<Webhook>();
    expect(enabled).toMatchObject({
      enabled: true,
      disabled_reason: null,
      consecutive_failures: 0,
      failing_since: null,
    });
  });

  it('are disabled after failing for 24 hours, and what they had queued is given up', async () => {
    const hook = await create();
    receiver.secret = hook.secret;
    receiver.answers.push(...Array<number>(5).fill(503));
    await cmA.post(`${A()}/${hook.id}/test`);
    await until(() => receiver.requests.length === 1);
    await t.services.webhookDelivery.idle();
    // A second event, waiting for its retry when the webhook is disabled.
    await cmA.post(`${A()}/${hook.id}/test`);
    await until(() => receiver.requests.length === 2);
    await t.services.webhookDelivery.idle();
    expect((await cmA.get(`${A()}/${hook.id}/info`)).json<Webhook>().failing_since).not.toBeNull();
    t.clock.advance(WEBHOOK_DELIVERY.disableAfterFailingMs);
    await deliver();
    const info = (await cmA.get(`${A()}/${hook.id}/info`)).json<Webhook>();
    expect(info).toMatchObject({ enabled: false, disabled_reason: 'failures' });
    const log = await deliveriesOf(hook.id);
    expect(log.map((d) => d.status)).toEqual(['failed', 'failed']);
    expect(log.some((d) => d.error === 'webhook disabled')).toBe(true);
  });

  it('page their delivery log, newest first', async () => {
    const hook = await create();
    receiver.secret = hook.secret;
    for (let i = 0; i < 3; i++) {
      await cmA.post(`${A()}/${hook.id}/test`);
      t.clock.advance(1000);
    }
    await until(() => receiver.requests.length === 3);
    const first = (await cmA.get(`${A()}/${hook.id}/deliveries?limit=2`)).json<WebhookDeliveriesPage>();
    expect(first.items).toHaveLength(2);
    const second = (
      await cmA.get(`${A()}/${hook.id}/deliveries?limit=2&cursor=${first.next_cursor}`)
    ).json<WebhookDeliveriesPage>();
    expect(second).toMatchObject({ next_cursor: null });
    const all = [...first.items, ...second.items].map((d) => d.created_at);
    expect(all).toEqual([...all].sort().reverse());
    expect((await cmA.get(`${A()}/${hook.id}/deliveries?limit=500`)).statusCode).toBe(400);
  });

  it('are deleted with their log', async () => {
    const hook = await create();
    receiver.secret = hook.secret;
    await cmA.post(`${A()}/${hook.id}/test`);
    await until(() => receiver.requests.length === 1);
    await t.services.webhookDelivery.idle();
    expect((await cmA.delete(`${A()}/${hook.id}/delete`)).statusCode).toBe(204);
    expect((await cmA.get(`${A()}/${hook.id}/info`)).statusCode).toBe(403);
    expect(
      await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook.id)),
    ).toEqual([]);
  });
});

/*
 * docs/webhooks.md "Where a webhook may point": a customer cannot make the server POST into the
 * operator's network. The app here runs as in production (no test-only door); resolution is
 * stubbed by the injectable lookup where a name must resolve to a chosen address.
 */
describe('where a webhook may point', () => {
  let t: TestApp;
  let w: World;
  let cmA: ApiClient;
  let cmAfr: ApiClient;
  let receiver: TestReceiver;
  const A = () => `/v1/customers/${w.customers.a.id}/webhooks`;
  const refusedAddress = {
    code: 'errors.validation',
    details: [
      expect.objectContaining({
        path: 'url',
        message: expect.stringContaining('private, local or reserved'),
      }),
    ],
  };
  /** What the stubbed DNS answers for every name, changed by a test as a rebinding name would. */
  let answer: string[] = [];
  const lookup: LookupAll = async () =>
    answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  const servicesWith = (testEndpoints: boolean) => {
    const delivery = new WebhookDelivery(t.db, {
      log: { warn: () => undefined },
      mailer: t.services.context.mailer,
      publicUrl: 'http://flowbox.test',
      now: t.clock.now,
      testEndpoints,
      lookup,
    });
    return {
      webhooks: new WebhooksService(t.services.context, { kick: () => undefined }, { testEndpoints, lookup }),
      delivery,
      actor: makeActor(w.users.cmA, [], 'where-webhooks-point'),
    };
  };
  const deliveriesOf = async (id: string) =>
    (await cmA.get(`${A()}/${id}/deliveries`)).json<WebhookDeliveriesPage>().items;

  beforeAll(async () => {
    t = await createTestApp({ webhookTestEndpoints: false });
    w = await createWorld(t.db);
    [cmA, cmAfr] = await Promise.all([loginAs(t.app, 'cm.a@test.io'), loginAs(t.app, 'cm.a@test.io', 'fr')]);
    receiver = await new TestReceiver(t.clock.now).start();
  });
  afterAll(async () => {
    await receiver.stop();
    await t.close();
  });
  beforeEach(async () => {
    await t.db.delete(webhooks);
    receiver.requests.length = 0;
  });

  it('is refused at creation when a private, local or reserved address, in any of its written forms', async () => {
    for (const url of [
      'https://127.0.0.1/x',
      'https://2130706433/x',
      'https://0x7f.0.0.1/x',
      'https://0177.0.0.1/x',
      'https://10.1.2.3/x',
      'https://167772161/x',
      'https://172.16.5.4/x',
      'https://192.168.1.10/x',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/x',
      'https://0.0.0.0/x',
      'https://224.0.0.251/x',
      'https://[::1]/x',
      'https://[::]/x',
      'https://[fd12:3456::1]/x',
      'https://[fe80::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://[::ffff:a9fe:a9fe]/x',
    ]) {
      const res = await cmA.post(`${A()}/create`, { url, events: ['alert.opened'] });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject(refusedAddress);
    }
    const fr = await cmAfr.post(`${A()}/create`, { url: 'https://10.0.0.1/x', events: ['alert.opened'] });
    expect(fr.json()).toMatchObject({
      details: [expect.objectContaining({ path: 'url', message: expect.stringContaining('réseau privé') })],
    });
    expect(await t.db.select().from(webhooks)).toEqual([]);
  });

  it('is refused when its name resolves to such an address, at creation and change', async () => {
    // localhost, resolved by the system's resolver as any name.
    const res = await cmA.post(`${A()}/create`, {
      url: 'https://localhost:8443/x',
      events: ['alert.opened'],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject(refusedAddress);
    const { webhooks: service, actor } = servicesWith(false);
    // Every address the name resolves to is checked: one private among public ones is enough.
    answer = ['93.184.215.14', '10.0.0.7'];
    await expect(
      service.create(actor, w.customers.a.id, {
        url: 'https://hooks.customer.example/x',
        events: ['alert.opened'],
      }),
    ).rejects.toMatchObject({
      code: 'errors.validation',
      details: [{ path: 'url', message: 'validation.webhook_address' }],
    });
    answer = ['93.184.215.14'];
    const hook = await service.create(actor, w.customers.a.id, {
      url: 'https://hooks.customer.example/x',
      events: ['alert.opened'],
    });
    const changed = await cmA.put(`${A()}/${hook.id}/update`, { url: 'https://192.168.0.20/x' });
    expect(changed.statusCode).toBe(400);
    expect(changed.json()).toMatchObject(refusedAddress);
    expect((await cmA.get(`${A()}/${hook.id}/info`)).json()).toMatchObject({
      url: 'https://hooks.customer.example/x',
    });
  });

  it('is resolved again at delivery: a name that now resolves to a private address is never sent to', async () => {
    const { webhooks: service, delivery, actor } = servicesWith(false);
    answer = ['93.184.215.14'];
    const hook = await service.create(actor, w.customers.a.id, {
      url: 'https://hooks.customer.example/flowbox',
      events: ['alert.opened'],
    });
    // Rebound since: the name now leads to the server's own machine.
    answer = ['127.0.0.1'];
    await service.sendTest(actor, w.customers.a.id, hook.id);
    expect(await delivery.deliverDue()).toBe(1);
    const [failed] = await deliveriesOf(hook.id);
    expect(failed).toMatchObject({
      status: 'failed',
      attempts: 1,
      response_status: null,
      next_attempt_at: null,
    });
    expect(failed!.error).toBe(
      'address not allowed: hooks.customer.example resolves to 127.0.0.1, a private, local or reserved address',
    );
  });

  it('connects only to the address it checked, and stops when the name moves (test-only door: loopback)', async () => {
    const { webhooks: service, delivery, actor } = servicesWith(true);
    answer = ['127.0.0.1'];
    // A name no real resolver knows: reached only through the address the check answered.
    const url = `http://hooks.customer.test:${receiver.port}/hooks/flowbox`;
    const hook = await service.create(actor, w.customers.a.id, { url, events: ['alert.opened'] });
    receiver.secret = hook.secret;
    await service.sendTest(actor, w.customers.a.id, hook.id);
    await delivery.deliverDue();
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]!.verified).toBe(true);
    expect(receiver.requests[0]!.headers.host).toBe(`hooks.customer.test:${receiver.port}`);
    answer = ['169.254.169.254'];
    await service.sendTest(actor, w.customers.a.id, hook.id);
    await delivery.deliverDue();
    expect(receiver.requests).toHaveLength(1);
    const [latest] = await deliveriesOf(hook.id);
    expect(latest).toMatchObject({ status: 'failed', attempts: 1 });
    expect(latest!.error).toContain('resolves to 169.254.169.254');
  });
});

describe('the webhook queue survives a restart', () => {
  it('a delivery queued while the receiver was down is sent by the server started after it', async () => {
    const database = await openTestDatabase();
    const clock = new TestClock();
    const start = async () => {
      const built = await buildApp({
        config: testConfig(),
        db: database.db,
        now: clock.now,
        logger: false,
        rateLimitPerMinute: 1_000_000,
      });
      await built.app.ready();
      return built;
    };
    // A port nobody listens on yet: the receiver starts there after the restart.
    const receiver = await new TestReceiver(clock.now).start();
    const port = receiver.port;
    await receiver.stop();
    const first = await start();
    let hookId = '';
    try {
      const w = await createWorld(database.db);
      const cmA = await loginAs(first.app, 'cm.a@test.io');
      const res = await cmA.post(`/v1/customers/${w.customers.a.id}/webhooks/create`, {
        url: `http://127.0.0.1:${port}/hooks/flowbox`,
        events: ['alert.opened'],
      });
      const hook = res.json<Created>();
      hookId = hook.id;
      receiver.secret = hook.secret;
      await cmA.post(`/v1/customers/${w.customers.a.id}/webhooks/${hook.id}/test`);
      // Tried, refused by the network: waiting for its retry.
      await until(async () => {
        const [row] = await database.db.select().from(webhookDeliveries);
        return row?.status === 'queued' && row.attempts === 1;
      });
    } finally {
      await first.services.webhookDelivery.idle();
      await first.app.close();
    }
    await receiver.start(port);
    const second = await start();
    clock.advance(WEBHOOK_DELIVERY.firstRetryMs);
    const stopJobs = startJobs(second.services.jobs, [webhookDeliveriesJob(second.services.webhookDelivery)]);
    try {
      // The job's pass at start takes it.
      await until(() => receiver.requests.length === 1);
      expect(receiver.requests[0]!.verified).toBe(true);
      expect(receiver.requests[0]!.payload.type).toBe('webhook.test');
      await until(
        async () => (await database.db.select().from(webhookDeliveries))[0]?.status === 'delivered',
      );
      const [row] = await database.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.webhookId, hookId));
      expect(row).toMatchObject({ attempts: 2, responseStatus: 200 });
    } finally {
      await stopJobs();
      await second.app.close();
      await receiver.stop();
      await database.close();
    }
  });
});
