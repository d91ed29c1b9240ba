import type { PushAlertPayload } from '@flowbox/shared';
import type { SimulatedFlowbox } from '@flowbox/simulator';
import type { Browser, BrowserContext, Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decryptPush,
  TestPushService,
  testBrowser,
  type TestBrowser,
} from '../packages/server/src/push/push.testing.ts';
import { expectAccessible } from './axe.ts';
import { baseUrl, DEMO, launchBrowser, newPage, signedIn, signIn } from './browser.ts';
import { invitedResident, pairSimulatedDevice, subscribedZone, type SubscribedZone } from './fixtures.ts';

/*
 * Web Push in the browser (issue 33, docs/push.md "The web app"): the app installs (manifest,
 * icons, offline start), the settings page subscribes this browser, the server pushes a burst of a
 * real simulated flowbox to it through a push service on loopback, the service worker shows it, its
 * "Close the water" closes that flowbox's valve and its "Snooze 1 h" snoozes the alert, both with
 * the user's own session; a resident's "It's me" answers the alert's "Was this you?" as that
 * resident. Each action also marks the alert opened by the person (docs/alerts.md "Escalation").
 *
 * Headless Chromium has no vendor push service: the page's PushManager answers a subscription to
 * the loopback push service (made with a browser's keys, as push.testing.ts makes them), and the
 * message it receives is delivered to the worker by DevTools (ServiceWorker.deliverPushMessage),
 * as the browser's push service would.
 */

const SERIAL = 'FB-E2E-PU0001';
const FACTORY_SECRET = 'E2E_push_secret_'.padEnd(43, 'z');
const SHOTS = process.env.E2E_SCREENSHOTS ?? '/tmp';

let browser: Browser;
let service: TestPushService;
let phone: TestBrowser;
let device: SimulatedFlowbox | undefined;
let ticker: NodeJS.Timeout | undefined;
let zone: SubscribedZone;
let flowboxApi: string;
/** A resident of the zone, whose phone the zone's alerts are pushed to as well. */
const RESIDENT_PASSWORD = 'push-resident-1';
let resident: { id: string; email: string };
let residentPhone: TestBrowser;

beforeAll(async () => {
  // Push messaging is the whole browser's: the headless shell blocks notifications.
  browser = await launchBrowser({ webPush: true });
  service = await new TestPushService().start();
  phone = testBrowser(service.endpoint('e2e-customer-phone'));
  residentPhone = testBrowser(service.endpoint('e2e-resident-phone'));
  // A litre-billed premium zone (bursts are premium alerts) whose water is not closed automatically:
  // a burst past 10 L is an alert, and the person closes the water from it.
  zone = await subscribedZone('Push', { volumeUnit: 'liter', profile: 'housing' });
  const asCustomer = signedIn(DEMO.customer);
  await asCustomer('PUT', `${zone.api}/subscription/update`, {
    pricing_plan_id: zone.planId,
    service_level: 'premium',
  });
  const paired = await pairSimulatedDevice(zone, {
    serial: SERIAL,
    factorySecret: FACTORY_SECRET,
    seed: 33,
    intervalS: 2,
    pairingRetryMs: 500,
  });
  flowboxApi = paired.flowboxApi;
  resident = await invitedResident([zone.api.split('/').pop()!], {
    language: 'en',
    password: RESIDENT_PASSWORD,
    firstname: 'Pia',
  });
  await signedIn(resident.email, RESIDENT_PASSWORD)('POST', '/push/subscriptions', {
    ...residentPhone.subscription,
    label: 'Pia’s phone',
  });
  device = paired.simulated;
  await device.start();
  // A lone device measures when ticked (a fleet runs this timer for its devices).
  ticker = setInterval(() => device?.tick(), 500);
  await asCustomer('PUT', `${zone.api}/automation/update`, {
    automatic_closing_enabled: false,
    volume_margin_enabled: true,
    volume_margin: 10,
    duration_margin_enabled: false,
    duration_margin_minutes: null,
  });
});
afterAll(async () => {
  clearInterval(ticker);
  await device?.stop();
  await browser?.close();
  await service?.stop();
});

/** The PNG's width and height, from its IHDR chunk. */
const pngSize = (bytes: Buffer) => `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;

/** The service worker's registration, once it controls the page. */
const workerReady = (page: Page) =>
  page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return { script: registration.active?.scriptURL ?? '', scope: registration.scope };
  });

describe('the installable app', () => {
  it('has a manifest with its icons and theme colour, the iOS tags, and a service worker at the root', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    expect(await page.locator('link[rel="manifest"]').getAttribute('href')).toBe('/manifest.webmanifest');
    expect(await page.locator('link[rel="apple-touch-icon"]').getAttribute('href')).toBe(
      '/icons/apple-touch-icon.png',
    );
    expect(await page.locator('meta[name="apple-mobile-web-app-capable"]').getAttribute('content')).toBe(
      'yes',
    );
    expect(await page.locator('meta[name="theme-color"]').getAttribute('content')).toBe('#0369a1');

    const answer = await page.request.get('/manifest.webmanifest');
    expect(answer.headers()['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = (await answer.json()) as {
      name: string;
      short_name: string;
      start_url: string;
      display: string;
      theme_color: string;
      icons: { src: string; sizes: string; purpose: string }[];
    };
    expect(manifest).toMatchObject({
      name: 'Flowbox Manager',
      short_name: 'Flowbox',
      start_url: '/',
      display: 'standalone',
      theme_color: '#0369a1',
    });
    expect(manifest.icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual([
      '192x192 any',
      '512x512 any',
      '512x512 maskable',
    ]);
    for (const icon of [...manifest.icons, { src: '/icons/apple-touch-icon.png', sizes: '180x180' }]) {
      const png = await page.request.get(icon.src);
      expect(png.headers()['content-type']).toBe('image/png');
      expect(pngSize(await png.body())).toBe(icon.sizes);
    }

    expect(await workerReady(page)).toEqual({ script: `${baseUrl()}/sw.js`, scope: `${baseUrl()}/` });
    await context.close();
  });

  it('starts offline on a page saying so, in the language the app last showed', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    await workerReady(page);
    await context.setOffline(true);
    try {
      await page.goto('/notifications');
      await page.getByRole('heading', { name: 'You are offline' }).waitFor();
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: `${SHOTS}/push-offline-390-en.png` });
      await page.evaluate(() => window.localStorage.setItem('language', 'fr'));
      await page.reload();
      await page.getByRole('heading', { name: 'Vous êtes hors ligne' }).waitFor();
      expect(await page.getByRole('heading', { name: 'You are offline' }).isVisible()).toBe(false);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.screenshot({ path: `${SHOTS}/push-offline-1280-fr.png` });
    } finally {
      await context.setOffline(false);
    }
    // Back online, the page reloads by itself: the same address is the app again (its sign-in).
    await page.waitForURL((url) => url.pathname === '/login');
    await context.close();
  });
});

/**
 * The page's PushManager, subscribed to the loopback push service with `phone`'s keys: what a
 * browser's push service would have answered. Kept in the page's storage across loads.
 */
async function fakePushManager(context: BrowserContext, subscription: TestBrowser['subscription']) {
  await context.addInitScript((sub) => {
    const STORED = 'e2e-push-key';
    const keyOf = (base64: string) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)).buffer;
    const fake = (key: string) => ({
      endpoint: sub.endpoint,
      expirationTime: null,
      options: { applicationServerKey: keyOf(key), userVisibleOnly: true },
      toJSON: () => ({ endpoint: sub.endpoint, expirationTime: null, keys: sub.keys }),
      getKey: () => null,
      unsubscribe: async () => {
        window.localStorage.removeItem(STORED);
        return true;
      },
    });
    PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
      const bytes = new Uint8Array(options?.applicationServerKey as ArrayBuffer);
      window.localStorage.setItem(STORED, btoa(String.fromCharCode(...bytes)));
      return fake(window.localStorage.getItem(STORED)!) as unknown as PushSubscription;
    };
    PushManager.prototype.getSubscription = async function () {
      const key = window.localStorage.getItem(STORED);
      return (key ? fake(key) : null) as unknown as PushSubscription | null;
    };
  }, subscription);
}

/** The registration id DevTools knows the app's worker by, for ServiceWorker.deliverPushMessage. */
async function registrationIdOf(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  const found = new Promise<string>((resolve) =>
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((r) => r.scopeURL === `${baseUrl()}/` && !r.isDeleted);
      if (ours) resolve(ours.registrationId);
    }),
  );
  await cdp.send('ServiceWorker.enable');
  return { cdp, registrationId: await found };
}

type ShownNotification = {
  title: string;
  body: string;
  tag: string;
  actions: string[];
  requireInteraction: boolean;
};

const shownNotifications = (page: Page): Promise<ShownNotification[]> =>
  page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      actions: ((n as Notification & { actions?: { title: string }[] }).actions ?? []).map((a) => a.title),
      requireInteraction: n.requireInteraction,
    }));
  });

describe('notifications on this device', () => {
  it('are turned on in the settings; a burst is pushed, shown by the worker, its "Close the water" closes the valve and its "Snooze 1 h" snoozes it', async () => {
    const { context, page } = await newPage(browser);
    await context.grantPermissions(['notifications'], { origin: baseUrl() });
    await fakePushManager(context, phone.subscription);
    await signIn(page, DEMO.customer);
    await workerReady(page);

    await page.goto('/settings');
    const card = page.getByTestId('device-push');
    await expect.poll(() => card.getAttribute('data-state')).toBe('off');
    await card.getByRole('button', { name: 'Turn notifications on' }).click();
    await expect.poll(() => card.getAttribute('data-state')).toBe('on');
    await card.getByText('Notifications are on for this browser.').waitFor();
    const mine = await signedIn(DEMO.customer)<{ items: { endpoint: string }[] }>(
      'GET',
      '/push/subscriptions',
    );
    expect(mine.items.map((s) => s.endpoint)).toContain(phone.endpoint);

    // Another of the person's browsers is listed, and removed from here.
    const old = testBrowser('https://push.example/e2e-old-phone');
    await signedIn(DEMO.customer)('POST', '/push/subscriptions', { ...old.subscription, label: 'Old phone' });
    await page.reload();
    await expect.poll(() => card.getAttribute('data-state')).toBe('on');
    const other = card.getByTestId('push-browser').filter({ hasText: 'Old phone' });
    await other.waitFor();
    const region = page.getByRole('region', { name: 'Notifications on this device' });
    await page.setViewportSize({ width: 390, height: 844 });
    await region.screenshot({ path: `${SHOTS}/push-settings-390-en.png` });
    await page.setViewportSize({ width: 1280, height: 800 });
    await region.screenshot({ path: `${SHOTS}/push-settings-1280-en.png` });
    await expectAccessible(page, 'the settings page with notifications on this device');
    await other.getByRole('button', { name: 'Remove Old phone' }).click();
    await expect.poll(() => other.count()).toBe(0);

    // A burst on the flowbox: the server pushes it to this browser, through the push service.
    device!.setFaults([{ kind: 'burst_pipe' }]);
    await expect
      .poll(() => service.requestsTo(phone.endpoint).length, { timeout: 60_000 })
      .toBeGreaterThan(0);
    const payload = JSON.parse(
      decryptPush(phone, service.requestsTo(phone.endpoint)[0]!.body),
    ) as PushAlertPayload;
    device!.setFaults([]);
    expect(payload).toMatchObject({
      category: 'abnormal_water_consumption_no_ac',
      language: 'en',
      critical: true,
      title: 'Abnormal water consumption',
      zone: { name: zone.name },
    });

    // Its push service delivers it to the worker, which shows it.
    const { cdp, registrationId } = await registrationIdOf(context, page);
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: baseUrl(),
      registrationId,
      data: JSON.stringify(payload),
    });
    // A browser shows the first actions it has room for (Chrome on a computer: two).
    const room = await page.evaluate(() => (Notification as unknown as { maxActions: number }).maxActions);
    await expect
      .poll(async () => (await shownNotifications(page)).find((n) => n.tag === payload.alert_id))
      .toMatchObject({
        title: 'Abnormal water consumption',
        requireInteraction: true,
        actions: ['Close the water', "It's me", 'Snooze 1 h'].slice(0, room),
      });

    // "Close the water", as the notification's click runs it. The access token (5 s in these tests)
    // has expired by now: the worker renews the session from its cookies first.
    const worker = context.serviceWorkers().find((w) => w.url() === `${baseUrl()}/sw.js`) as Worker;
    await worker.evaluate(
      (alert) =>
        (
          self as unknown as { answerNotification: (p: unknown, action: string) => Promise<void> }
        ).answerNotification(alert, 'close_water'),
      payload,
    );
    const asCustomer = signedIn(DEMO.customer);
    await expect
      .poll(async () => (await asCustomer<{ valve: string | null }>('GET', `${flowboxApi}/info`)).valve, {
        timeout: 30_000,
      })
      .toBe('closed');
    const commands = await asCustomer<{ items: { name: string }[] }>('GET', `${flowboxApi}/commands/list`);
    expect(commands.items[0]).toMatchObject({ name: 'valve_close' });

    // The app is taken to the alert's page, still signed in with the tokens the worker renewed.
    await page.waitForURL((url) => url.pathname === '/notifications');
    await page.getByRole('heading', { name: 'Notifications and alerts' }).waitFor();
    // The alert says how soon after its reading the first notification went (issue 33).
    await expect
      .poll(() => page.getByTestId('alert-first-push').first().textContent())
      .toMatch(/^First notification pushed \d+(\.\d)? (s|min) after the reading$/);

    // "Snooze 1 h" the same way: the person's snooze is logged on the alert.
    await worker.evaluate(
      (alert) =>
        (
          self as unknown as { answerNotification: (p: unknown, action: string) => Promise<void> }
        ).answerNotification(alert, 'snooze_1h'),
      payload,
    );
    const snoozed = await asCustomer<{ items: { object_id: string | null }[] }>(
      'GET',
      `${zone.api}/events?action_name=alert_snoozed`,
    );
    expect(snoozed.items.map((e) => e.object_id)).toContain(payload.alert_id);

    // Signing out withdraws this browser: the next alert is not pushed to it.
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    const after = await signedIn(DEMO.customer)<{ items: { endpoint: string }[] }>(
      'GET',
      '/push/subscriptions',
    );
    expect(after.items.map((s) => s.endpoint)).not.toContain(phone.endpoint);
    await context.close();
  });
});

/** Records the worker's own calls to the API, "METHOD /path status", to read back after an action. */
const recordWorkerCalls = (worker: Worker) =>
  worker.evaluate(() => {
    const calls: string[] = [];
    const network = self.fetch.bind(self);
    (self as unknown as { e2eCalls: string[] }).e2eCalls = calls;
    self.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await network(input, init);
      const path = new URL(input instanceof Request ? input.url : String(input), self.location.href).pathname;
      calls.push(`${init?.method ?? 'GET'} ${path} ${response.status}`);
      return response;
    };
  });
const workerCalls = (worker: Worker) =>
  worker.evaluate(() => (self as unknown as { e2eCalls: string[] }).e2eCalls);

describe('"It\'s me" from a notification', () => {
  it('answers "Was this you?" on a burst as the resident whose phone it reached, the alert marked opened first', async () => {
    const { context, page } = await newPage(browser);
    await context.grantPermissions(['notifications'], { origin: baseUrl() });
    await signIn(page, resident.email, RESIDENT_PASSWORD);
    await workerReady(page);

    // The burst of the test above reached the resident's phone too; run alone, this test makes one.
    if (service.requestsTo(residentPhone.endpoint).length === 0) {
      device!.setFaults([{ kind: 'burst_pipe' }]);
      await expect
        .poll(() => service.requestsTo(residentPhone.endpoint).length, { timeout: 60_000 })
        .toBeGreaterThan(0);
      device!.setFaults([]);
    }
    const payload = JSON.parse(
      decryptPush(residentPhone, service.requestsTo(residentPhone.endpoint)[0]!.body),
    ) as PushAlertPayload;
    expect(payload).toMatchObject({ category: 'abnormal_water_consumption_no_ac', language: 'en' });
    expect(payload.actions.map((a) => a.action)).toContain('its_me');

    const { cdp, registrationId } = await registrationIdOf(context, page);
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: baseUrl(),
      registrationId,
      data: JSON.stringify(payload),
    });
    const room = await page.evaluate(() => (Notification as unknown as { maxActions: number }).maxActions);
    await expect
      .poll(async () => (await shownNotifications(page)).find((n) => n.tag === payload.alert_id))
      .toMatchObject({
        title: 'Abnormal water consumption',
        actions: payload.actions.map((a) => a.title).slice(0, room),
      });

    // "It's me", as the notification's click runs it, once the resident's access token has expired.
    const worker = context.serviceWorkers().find((w) => w.url() === `${baseUrl()}/sw.js`) as Worker;
    await recordWorkerCalls(worker);
    await worker.evaluate(
      (alert) =>
        (
          self as unknown as { answerNotification: (p: unknown, action: string) => Promise<void> }
        ).answerNotification(alert, 'its_me'),
      payload,
    );
    const info = await signedIn(resident.email, RESIDENT_PASSWORD)<{
      answers?: { user_id: string | null; answer: string }[];
    }>('GET', `/alerts/${payload.alert_id}/info`);
    expect(info.answers).toEqual([expect.objectContaining({ user_id: resident.id, answer: 'me' })]);
    // Opened first, then answered, each with the resident's session (renewed if need be); no
    // notification saying it could not be done replaced the alert's.
    const calls = (await workerCalls(worker)).filter((call) => !call.startsWith('POST /v1/users/refresh'));
    expect(calls).toEqual(
      expect.arrayContaining([
        'POST /v1/alerts/opened 200',
        `POST /v1/alerts/${payload.alert_id}/answer 200`,
      ]),
    );
    expect(calls.indexOf('POST /v1/alerts/opened 200')).toBeLessThan(
      calls.indexOf(`POST /v1/alerts/${payload.alert_id}/answer 200`),
    );
    expect((await shownNotifications(page)).map((n) => n.title)).not.toContain(
      'Flowbox Manager could not do it',
    );
    // The zone's manager reads the resident's answer on the alert.
    const seenByManager = await signedIn(DEMO.customer)<{
      answers?: { user_id: string | null; answer: string }[];
    }>('GET', `/alerts/${payload.alert_id}/info`);
    expect(seenByManager.answers).toContainEqual(
      expect.objectContaining({ user_id: resident.id, answer: 'me' }),
    );
    await context.close();
  }, 120_000);
});
