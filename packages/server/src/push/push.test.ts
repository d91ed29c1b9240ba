import {
  ROLES,
  PushAlertPayloadSchema,
  translate,
  type Alert,
  type MessageKey,
  type PushAlertPayload,
} from '@flowbox/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { pushMessages, pushSubscriptions, users, zones } from '../db/schema.ts';
import { until } from '../flowboxes/testing.ts';
import { startJobs } from '../jobs/registry.ts';
import {
  buildingBody,
  createTestApp,
  createUser,
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
import { pushDeliveriesJob } from './push-deliveries.job.ts';
import { PUSH_DELIVERY } from './push-delivery.service.ts';
import { decryptPush, readVapid, TestPushService, testBrowser, type TestBrowser } from './push.testing.ts';

/*
 * Web Push (issue 33, docs/push.md): the calls that manage a user's browsers, and critical alerts
 * pushed to them through a push service on loopback that decrypts what it receives as the browser
 * would (the real web-push and its real encryption on the sending side; only the vendor's service
 * is replaced).
 */

const VAPID = testConfig().vapid;
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

const subscriptionsOfUser = (t: TestApp, userId: string) =>
  t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));

describe('the calls of a user’s browsers', () => {
  let t: TestApp;
  let w: World;
  let cmA: ApiClient;
  let cmB: ApiClient;
  let provider: ApiClient;
  const browser = () =>
    testBrowser(`https://push.example/send/${Math.random().toString(36).slice(2)}`).subscription;

  beforeAll(async () => {
    // As in production: https endpoints only.
    t = await createTestApp({ pushTestEndpoints: false });
    w = await createWorld(t.db);
    [cmA, cmB, provider] = await Promise.all([
      loginAs(t.app, 'cm.a@test.io'),
      loginAs(t.app, 'cm.b@test.io', 'fr'),
      loginAs(t.app, 'provider@test.io'),
    ]);
  });
  afterAll(() => t.close());

  it("answers the server's VAPID public key to any signed-in user, and nobody else", async () => {
    expect((await cmA.get('/v1/push/key')).json()).toEqual({ public_key: VAPID.publicKey });
    expect((await t.app.inject({ method: 'GET', url: '/v1/push/key' })).statusCode).toBe(401);
  });

  it('subscribes the caller’s browser, named from its User-Agent, and lists it without its keys', async () => {
    const subscription = browser();
    const res = await cmA.request('POST', '/v1/push/subscriptions', subscription, {
      'user-agent': IPHONE_SAFARI,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      endpoint: subscription.endpoint,
      label: 'Safari on iPhone',
      last_success_at: null,
      failure_count: 0,
    });
    const list = (await cmA.get('/v1/push/subscriptions')).json<{ items: { endpoint: string }[] }>();
    expect(list.items.map((s) => s.endpoint)).toContain(subscription.endpoint);
    expect(JSON.stringify(list)).not.toContain(subscription.keys.auth);
  });

  it('takes the same browser again as one subscription with its new keys', async () => {
    const subscription = browser();
    await cmA.post('/v1/push/subscriptions', subscription);
    const renewed = { ...browser(), endpoint: subscription.endpoint, label: 'Kitchen tablet' };
    expect((await cmA.post('/v1/push/subscriptions', renewed)).statusCode).toBe(201);
    const rows = (await subscriptionsOfUser(t, w.users.cmA.id)).filter(
      (s) => s.endpoint === subscription.endpoint,
    );
    expect(rows).toEqual([
      expect.objectContaining({
        p256dh: renewed.keys.p256dh,
        auth: renewed.keys.auth,
        label: 'Kitchen tablet',
      }),
    ]);
  });

  it('removes the caller’s own browser by its endpoint', async () => {
    const subscription = browser();
    await cmA.post('/v1/push/subscriptions', subscription);
    const res = await cmA.delete('/v1/push/subscriptions', { endpoint: subscription.endpoint });
    expect(res.statusCode).toBe(204);
    expect((await subscriptionsOfUser(t, w.users.cmA.id)).map((s) => s.endpoint)).not.toContain(
      subscription.endpoint,
    );
    expect((await cmA.delete('/v1/push/subscriptions', { endpoint: subscription.endpoint })).statusCode).toBe(
      404,
    );
  });

  it("never lists nor removes another user's browser, whatever their role: it is not found, and stays", async () => {
    const subscription = browser();
    await cmA.post('/v1/push/subscriptions', subscription);
    for (const other of [cmB, provider]) {
      const listed = (await other.get('/v1/push/subscriptions')).json<{ items: { endpoint: string }[] }>();
      expect(listed.items.map((s) => s.endpoint)).not.toContain(subscription.endpoint);
      const res = await other.delete('/v1/push/subscriptions', { endpoint: subscription.endpoint });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'errors.not_found' });
    }
    expect((await subscriptionsOfUser(t, w.users.cmA.id)).map((s) => s.endpoint)).toContain(
      subscription.endpoint,
    );
  });

  describe('bad input: 400 with the catalogue’s words, in the caller’s language, and nothing written', () => {
    const cases: [string, (s: ReturnType<typeof browser>) => unknown, string, MessageKey][] = [
      [
        'a plain http endpoint',
        (s) => ({ ...s, endpoint: 'http://push.example/x' }),
        'endpoint',
        'validation.push_endpoint',
      ],
      [
        'an endpoint that is no URL',
        (s) => ({ ...s, endpoint: 'push.example/x' }),
        'endpoint',
        'validation.push_endpoint',
      ],
      [
        'an ftp endpoint',
        (s) => ({ ...s, endpoint: 'ftp://push.example/x' }),
        'endpoint',
        'validation.push_endpoint',
      ],
      [
        'an endpoint of 2,001 characters',
        (s) => ({ ...s, endpoint: `https://push.example/${'x'.repeat(2001 - 21)}` }),
        'endpoint',
        'validation.too_long',
      ],
      ['no endpoint', ({ keys }) => ({ keys }), 'endpoint', 'validation.required'],
      ['no keys', ({ endpoint }) => ({ endpoint }), 'keys', 'validation.required'],
      [
        'a p256dh key of the wrong length',
        (s) => ({ ...s, keys: { ...s.keys, p256dh: s.keys.p256dh.slice(4) } }),
        'keys.p256dh',
        'validation.push_key',
      ],
      [
        'an auth secret that is not base64url',
        (s) => ({ ...s, keys: { ...s.keys, auth: '!!!!!!!!!!!!!!!!!!!!!!' } }),
        'keys.auth',
        'validation.push_key',
      ],
    ];
    it.each(cases)('%s', async (_name, make, path, key) => {
      const before = await t.db.select().from(pushSubscriptions);
      for (const [client, language] of [
        [cmA, 'en'],
        [cmB, 'fr'],
      ] as const) {
        const res = await client.post('/v1/push/subscriptions', make(browser()));
        expect(res.statusCode).toBe(400);
        const body = res.json<{ code: string; details: { path: string; message: string }[] }>();
        expect(body.code).toBe('errors.validation');
        expect(body.details).toContainEqual({
          path,
          message: translate(key, language, { max: 2000 }),
        });
      }
      expect(await t.db.select().from(pushSubscriptions)).toEqual(before);
    });

    it('a removal without an endpoint', async () => {
      const res = await cmA.delete('/v1/push/subscriptions', {});
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'errors.validation',
        details: [{ path: 'endpoint', message: translate('validation.required', 'en') }],
      });
    });
  });
});

describe('critical alerts pushed to the browsers of the people the alert emails reach', () => {
  let t: TestApp;
  let w: World;
  let service: TestPushService;
  let zoneA1: string;
  let frenchId: string;
  let asCmA: ApiClient;
  const browsers: Record<'cmA' | 'french' | 'cmB' | 'endUser', TestBrowser> = {} as never;

  beforeAll(async () => {
    service = await new TestPushService().start();
    t = await createTestApp();
    w = await createWorld(t.db);
    const cmA = await loginAs(t.app, 'cm.a@test.io');
    asCmA = cmA;
    const site = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
    const building = (await cmA.post(`${site}/buildings/create`, buildingBody())).json<{ id: string }>().id;
    zoneA1 = (
      await cmA.post(`${site}/buildings/${building}/zones/create`, zoneBody({ name: 'Kitchen' }))
    ).json<{
      id: string;
    }>().id;
    // Burst and leak alerts are premium-only by default (spec §6).
    await t.db.update(zones).set({ serviceLevel: 'premium' }).where(eq(zones.id, zoneA1));
    const french = await createUser(t.db, {
      email: 'cm.fr@test.io',
      role: ROLES.customer_manager,
      customerId: w.customers.a.id,
    });
    frenchId = french.id;
    await t.db.update(users).set({ language: 'fr' }).where(eq(users.id, french.id));
    await createUser(t.db, { email: 'eu.other@test.io', role: ROLES.end_user, customerId: w.customers.a.id });
    const clients = {
      cmA,
      french: await loginAs(t.app, 'cm.fr@test.io'),
      cmB: await loginAs(t.app, 'cm.b@test.io'),
      // An end user of another zone: the alert is not theirs.
      endUser: await loginAs(t.app, 'eu.other@test.io'),
    };
    for (const name of Object.keys(clients) as (keyof typeof clients)[]) {
      browsers[name] = testBrowser(service.endpoint(name));
      const res = await clients[name].post('/v1/push/subscriptions', browsers[name].subscription);
      expect(res.statusCode).toBe(201);
    }
  });
  afterAll(async () => {
    await t.close();
    await service.stop();
  });
  beforeEach(() => {
    service.requests.length = 0;
    service.statusOf.clear();
  });

  const raise = (
    category:
      'abnormal_water_consumption_with_ac' | 'abnormal_water_consumption_no_ac' | 'flowbox_internal_status',
    cause: string,
  ) =>
    t.db.transaction(async (tx) => {
      const outcome = await t.services.alerts.raise(tx, {
        category,
        zoneId: zoneA1,
        cause,
        details: { volume_l: 120, flow_minutes: 35, trigger: 'volume' },
      });
      if (!outcome.raised) throw new Error(outcome.reason);
      return outcome.alert;
    });
  const payloadTo = (name: keyof typeof browsers): PushAlertPayload => {
    const [request] = service.requestsTo(browsers[name].endpoint);
    return PushAlertPayloadSchema.parse(JSON.parse(decryptPush(browsers[name], request!.body)));
  };

  it('an automatic closing reaches each browser within moments, encrypted for it, signed with VAPID, urgent and short-lived', async () => {
    const alert = await raise('abnormal_water_consumption_with_ac', 'closing-1');
    // No pass run by the test: the alert's notification, heard on commit, sends it.
    await until(() => service.requests.length >= 2);
    await t.services.alertNotifier.idle();
    await t.services.pushDelivery.idle();
    expect(service.requests.map((r) => r.path).sort()).toEqual(
      [browsers.cmA.endpoint, browsers.french.endpoint].map((e) => new URL(e).pathname).sort(),
    );
    const [request] = service.requestsTo(browsers.cmA.endpoint);
    expect(request!.headers).toMatchObject({
      urgency: 'high',
      ttl: '300',
      'content-encoding': 'aes128gcm',
      'content-type': 'application/octet-stream',
    });
    const vapid = readVapid(request!.headers.authorization);
    expect(vapid.valid).toBe(true);
    expect(vapid.publicKey).toBe(VAPID.publicKey);
    expect(vapid.header).toEqual({ typ: 'JWT', alg: 'ES256' });
    expect(vapid.claims).toMatchObject({ aud: `http://127.0.0.1:${service.port}`, sub: VAPID.subject });
    const exp = Number(vapid.claims.exp) * 1000;
    expect(exp).toBeGreaterThan(Date.now());
    expect(exp).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000);

    const en = payloadTo('cmA');
    expect(en).toMatchObject({
      type: 'alert',
      alert_id: alert.id,
      category: 'abnormal_water_consumption_with_ac',
      critical: true,
      language: 'en',
      zone: { id: zoneA1, name: 'Kitchen', building: 'Main building' },
      title: 'Abnormal water consumption: water closed automatically',
      url: `http://flowbox.test/notifications?zone_id=${zoneA1}&alert_id=${alert.id}`,
      opened_at: alert.opened_at,
    });
    expect(en.body).toContain('Kitchen (building Main building)');
    // The water is closed already: no "Close the water".
    expect(en.actions).toEqual([
      { action: 'its_me', title: "It's me" },
      { action: 'snooze_1h', title: 'Snooze 1 h' },
    ]);
    const fr = payloadTo('french');
    expect(fr.title).toBe("Consommation d'eau anormale : eau coupée automatiquement");
    expect(fr.language).toBe('fr');
    expect(fr.body).toContain('Kitchen (bâtiment Main building)');
    expect(fr.actions.map((a) => a.title)).toEqual(["C'est moi", 'Reporter 1 h']);

    const rows = await t.db.select().from(pushMessages).where(eq(pushMessages.alertId, alert.id));
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row).toMatchObject({ status: 'sent', urgency: 'high', ttlS: 300, attempts: 1 });
      expect(row.readingAt!.toISOString()).toBe(alert.opened_at);
      expect(row.sentAt!.getTime()).toBeGreaterThanOrEqual(row.readingAt!.getTime());
    }
    const [cmABrowser] = await subscriptionsOfUser(t, w.users.cmA.id);
    expect(cmABrowser!.lastSuccessAt).not.toBeNull();
    const scraped = await t.services.metrics.scrape();
    expect(scraped).toMatch(/flowbox_alert_push_latency_seconds_count 2/);
    expect(scraped).toMatch(/flowbox_push_messages_total\{outcome="sent"\} 2/);

    // The alert says when its first notification went, and how long after its reading: on the
    // alert and on the list, to whoever reads it.
    const firstSent = Math.min(...rows.map((row) => row.sentAt!.getTime()));
    const expected = {
      sent_at: new Date(firstSent).toISOString(),
      after_s: (firstSent - Date.parse(alert.opened_at)) / 1000,
    };
    const info = await asCmA.get(`/v1/alerts/${alert.id}/info`);
    expect(info.json<Alert>().first_push).toEqual(expected);
    const list = await asCmA.get(`/v1/alerts/list?zone_id=${zoneA1}&state=open`);
    const listed = list.json<{ items: Alert[] }>().items.find((a) => a.id === alert.id);
    expect(listed?.first_push).toEqual(expected);
  });

  it('a burst offers to close the water, and a repeat of the same cause is not pushed again', async () => {
    await raise('abnormal_water_consumption_no_ac', 'burst-1');
    await until(() => service.requests.length >= 2);
    expect(payloadTo('cmA').actions.map((a) => a.action)).toEqual(['close_water', 'its_me', 'snooze_1h']);
    expect(payloadTo('cmA').actions[0]!.title).toBe('Close the water');
    await raise('abnormal_water_consumption_no_ac', 'burst-1');
    await t.services.alertNotifier.pushDue();
    await t.services.pushDelivery.deliverDue();
    expect(service.requests).toHaveLength(2);
  });

  it('an alert that is not critical is not pushed', async () => {
    const alert = await raise('flowbox_internal_status', 'not-pushed');
    await t.services.alertNotifier.idle();
    await t.services.alertNotifier.pushDue();
    await t.services.pushDelivery.deliverDue();
    expect(service.requests).toHaveLength(0);
    const info = await asCmA.get(`/v1/alerts/${alert.id}/info`);
    expect(info.json<Alert>().first_push).toBeNull();
  });

  it('a user who turned alert notifications off is not pushed either', async () => {
    await t.db.update(users).set({ alertNotificationEnabled: false }).where(eq(users.id, frenchId));
    try {
      await raise('abnormal_water_consumption_no_ac', 'muted');
      await until(() => service.requests.length >= 1);
      await t.services.alertNotifier.idle();
      await t.services.pushDelivery.idle();
      expect(service.requests.map((r) => r.path)).toEqual([new URL(browsers.cmA.endpoint).pathname]);
    } finally {
      await t.db.update(users).set({ alertNotificationEnabled: true }).where(eq(users.id, frenchId));
    }
  });

  it('a browser the push service says is gone (410, or 404) is removed, and its user’s other browsers still get it', async () => {
    const second = testBrowser(service.endpoint('french-phone'));
    const french = await loginAs(t.app, 'cm.fr@test.io');
    await french.post('/v1/push/subscriptions', second.subscription);
    const gone = testBrowser(service.endpoint('french-old'));
    await french.post('/v1/push/subscriptions', gone.subscription);
    service.statusOf.set(new URL(second.endpoint).pathname, 410);
    service.statusOf.set(new URL(gone.endpoint).pathname, 404);
    await raise('abnormal_water_consumption_no_ac', 'gone-1');
    await until(() => service.requests.length >= 4);
    await t.services.alertNotifier.idle();
    await t.services.pushDelivery.idle();
    const endpoints = (await subscriptionsOfUser(t, frenchId)).map((s) => s.endpoint);
    expect(endpoints).toEqual([browsers.french.endpoint]);
    // Its messages went with it; the browser still there got it.
    expect(service.requestsTo(browsers.french.endpoint)).toHaveLength(1);
    expect(payloadTo('french').title).toBe("Consommation d'eau anormale");
  });

  it('a push service that fails for now is tried again with backoff until it takes the message', async () => {
    const path = new URL(browsers.cmA.endpoint).pathname;
    service.statusOf.set(path, 503);
    const alert = await raise('abnormal_water_consumption_no_ac', 'retry-1');
    await until(() => service.requestsTo(browsers.cmA.endpoint).length >= 1);
    await t.services.pushDelivery.idle();
    const [cmABrowser] = await subscriptionsOfUser(t, w.users.cmA.id);
    const mine = async () =>
      (await t.db.select().from(pushMessages).where(eq(pushMessages.alertId, alert.id))).find(
        (m) => m.subscriptionId === cmABrowser!.id,
      )!;
    let row = await mine();
    expect(row).toMatchObject({ status: 'queued', attempts: 1, error: 'push service answered 503' });
    expect(row.nextAttemptAt!.getTime() - t.clock.now().getTime()).toBeGreaterThan(
      PUSH_DELIVERY.firstRetryMs - 1000,
    );
    // Not before its time.
    await t.services.pushDelivery.deliverDue();
    expect(service.requestsTo(browsers.cmA.endpoint)).toHaveLength(1);
    service.statusOf.delete(path);
    t.clock.advance(PUSH_DELIVERY.firstRetryMs);
    await t.services.pushDelivery.deliverDue();
    row = await mine();
    expect(row).toMatchObject({ status: 'sent', attempts: 2 });
    expect(service.requestsTo(browsers.cmA.endpoint)).toHaveLength(2);
    expect((await subscriptionsOfUser(t, w.users.cmA.id))[0]!.failureCount).toBe(0);
  });
});

describe('the push queue survives a restart', () => {
  it('a message queued while the push service was unreachable is sent by the server started after it', async () => {
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
    // A port nobody listens on yet: the push service starts there after the restart.
    const service = await new TestPushService().start();
    const port = service.port;
    await service.stop();
    const browser = testBrowser(`http://127.0.0.1:${port}/push/restart`);
    const first = await start();
    try {
      const w = await createWorld(database.db);
      const cmA = await loginAs(first.app, 'cm.a@test.io');
      const site = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
      const building = (await cmA.post(`${site}/buildings/create`, buildingBody())).json<{ id: string }>().id;
      const zone = (await cmA.post(`${site}/buildings/${building}/zones/create`, zoneBody())).json<{
        id: string;
      }>().id;
      await database.db.update(zones).set({ serviceLevel: 'premium' }).where(eq(zones.id, zone));
      await cmA.post('/v1/push/subscriptions', browser.subscription);
      await database.db.transaction((tx) =>
        first.services.alerts.raise(tx, {
          category: 'leakage_detection',
          zoneId: zone,
          cause: 'restart-1',
          details: { continuous_hours: 24 },
        }),
      );
      // Queued, tried, refused by the network: waiting for its retry.
      await until(async () => {
        const [row] = await database.db.select().from(pushMessages);
        return row?.status === 'queued' && row.attempts === 1;
      });
    } finally {
      await first.app.close();
    }
    await service.start(port);
    const second = await start();
    clock.advance(PUSH_DELIVERY.firstRetryMs);
    const stopJobs = startJobs(second.services.jobs, [pushDeliveriesJob(second.services.pushDelivery)]);
    try {
      // The job's pass at start takes it.
      await until(() => service.requests.length === 1);
      const [request] = service.requests;
      expect(readVapid(request!.headers.authorization).valid).toBe(true);
      expect(JSON.parse(decryptPush(browser, request!.body))).toMatchObject({
        type: 'alert',
        category: 'leakage_detection',
      });
      await until(async () => (await database.db.select().from(pushMessages))[0]?.status === 'sent');
    } finally {
      await stopJobs();
      await second.app.close();
      await service.stop();
      await database.close();
    }
  });
});
