import { createDevice, type SimulatedFlowbox } from '@flowbox/simulator';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, DEMO, launchBrowser, mqttUrl, newPage } from './browser.ts';

const SERIAL = 'FB-E2E-ALERT01';
const FACTORY_SECRET = 'E2E_alert_factory_secret_'.padEnd(43, 'x');

let browser: Browser;
let device: SimulatedFlowbox | undefined;

type Api = Awaited<ReturnType<typeof apiAs>>;

/**
 * The API as a user, signed in afresh for each call: the browser tests' access tokens live five
 * seconds, less than a pairing takes on a busy machine.
 */
function signedIn(email: string): Api {
  return async <T>(method: string, path: string, body?: unknown): Promise<T> =>
    (await apiAs(email, DEMO.password))<T>(method, path, body);
}

/** A subscribed zone with a simulated flowbox paired in it whose autotests fail. */
async function pairedFailingDevice(asCustomer: Api): Promise<{ flowbox: string; zoneName: string }> {
  const asProvider = signedIn(DEMO.provider);
  const me = await asCustomer<{ customer_id: string }>('GET', '/users/me');
  const sites = await asCustomer<{ items: { id: string }[] }>(
    'GET',
    `/customers/${me.customer_id}/sites/list`,
  );
  const site = `/customers/${me.customer_id}/sites/${sites.items[0]!.id}`;
  const building = await asCustomer<{ id: string }>('POST', `${site}/buildings/create`, {
    name: 'Alert test building',
    type: 'office',
    address: '2 place Bellecour',
    city: 'Lyon',
    zipCode: '69002',
    country: 'FR',
    timezone: 'Europe/Paris',
    volume_unit: 'm3',
    currency: 'EUR',
    first_day_of_week: 'monday',
  });
  const zoneName = 'Alert test zone';
  const zones = `${site}/buildings/${building.id}/zones`;
  const zone = await asCustomer<{ id: string }>('POST', `${zones}/create`, {
    name: zoneName,
    profile: 'office',
    flowbox_model: 'one_inch_v1',
    water_temperature: 'cold',
  });
  const plan = await asProvider<{ id: string }>('POST', '/pricing_plans/create', {
    name: 'Alert test plan',
    is_default: false,
    regions: ['FR'],
    billing_type: 'monthly',
    acquisition_type: 'pay_as_you_go_fee',
    currency: 'EUR',
    volume_unit: 'm3',
    from_date: '2026-01-01',
    ranges: [{ volume_start: '0', volume_end: null, price_per_unit: '3.5' }],
  });
  const zonePath = `${zones}/${zone.id}`;
  await asCustomer('PUT', `${zonePath}/subscription/update`, {
    pricing_plan_id: plan.id,
    service_level: 'basic',
  });
  const prepared = await asCustomer<{ id: string }>('POST', `${zonePath}/flowboxes/pair`, {
    serial: SERIAL,
    factory_secret: FACTORY_SECRET,
  });
  device = createDevice({
    serial: SERIAL,
    brokerUrl: mqttUrl(),
    factorySecret: FACTORY_SECRET,
    zone: { profile: 'office', water_points: [], timezone: 'Europe/Paris' },
    model: 'one_inch_v1',
    waterTemperature: 'cold',
    seed: 8,
    pairingRetryMs: 5000,
    autotestResult: 'failed',
  });
  const paired = device.pair();
  const flowbox = `${zonePath}/flowboxes/${prepared.id}`;
  await expect
    .poll(async () => (await asCustomer<{ pairing_state: string }>('GET', `${flowbox}/info`)).pairing_state, {
      timeout: 15_000,
    })
    .toBe('pending');
  await asCustomer('POST', `${flowbox}/validate`);
  await paired;
  await device.start();
  return { flowbox, zoneName };
}

async function signIn(page: Page, email: string) {
  await page.goto('/login');
  await page.getByRole('button', { name: 'English' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await device?.stop();
  await browser.close();
});

describe('alerts in the browser', () => {
  it('shows a new alert live with the header count, then silences and resolves it', async () => {
    const asCustomer = signedIn(DEMO.customer);
    const { flowbox, zoneName } = await pairedFailingDevice(asCustomer);
    const { page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto('/alerts?category=flowbox_dysfunction');
    await page.getByRole('heading', { name: 'Notifications and alerts' }).waitFor();
    const item = page.getByTestId('alert-item').filter({ hasText: zoneName });
    expect(await item.count()).toBe(0);
    const badge = page.getByTestId('alert-count');
    const before = Number((await badge.getAttribute('aria-label'))?.match(/\d+/)?.[0] ?? 0);

    // The device fails its autotest: the alert arrives without a reload, and the count follows.
    await asCustomer('POST', `${flowbox}/commands/send`, { name: 'autotest' });
    await expect.poll(() => item.count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => item.getAttribute('data-state')).toBe('open');
    await expect
      .poll(() => badge.getAttribute('aria-label'))
      .toBe(`${before + 1} open alert${before + 1 > 1 ? 's' : ''}`);

    await item.getByRole('button', { name: /^Silence/ }).click();
    await expect.poll(() => item.getAttribute('data-state'), { timeout: 10_000 }).toBe('silenced');
    await expect
      .poll(() => badge.getAttribute('aria-label'))
      .toBe(before > 0 ? `${before} open alert${before > 1 ? 's' : ''}` : 'No open alert');

    // Resolving asks first; cancelling changes nothing.
    await item.getByRole('button', { name: /^Resolve/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Resolve this alert?').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await item.getAttribute('data-state')).toBe('silenced');
    await item.getByRole('button', { name: /^Resolve/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Resolve' }).click();
    // Resolved alerts leave the default (open or silenced) list.
    await expect.poll(() => item.count(), { timeout: 10_000 }).toBe(0);
    await page.getByLabel('State').selectOption('resolved');
    await expect.poll(() => item.count(), { timeout: 10_000 }).toBe(1);
    expect(await item.textContent()).toContain('Resolved by');
  });

  it('filters the alerts by zone, and keeps a per-zone email choice after a reload', async () => {
    const asCustomer = signedIn(DEMO.customer);
    const me = await asCustomer<{ customer_id: string }>('GET', '/users/me');
    const sites = await asCustomer<{ items: { id: string }[] }>(
      'GET',
      `/customers/${me.customer_id}/sites/list`,
    );
    const site = `/customers/${me.customer_id}/sites/${sites.items[0]!.id}`;
    const building = await asCustomer<{ id: string }>('POST', `${site}/buildings/create`, {
      name: 'Zone filter building',
      type: 'office',
      address: '3 place Bellecour',
      city: 'Lyon',
      zipCode: '69002',
      country: 'FR',
      timezone: 'Europe/Paris',
      volume_unit: 'm3',
      currency: 'EUR',
      first_day_of_week: 'monday',
    });
    // A zone in maintenance mode is told by a maintenance alert at the next sweep (docs/alerts.md).
    const zoneIds: Record<string, string> = {};
    for (const name of ['Filter zone North', 'Filter zone South'])
      zoneIds[name] = (
        await asCustomer<{ id: string }>('POST', `${site}/buildings/${building.id}/zones/create`, {
          name,
          profile: 'office',
          flowbox_model: 'one_inch_v1',
          water_temperature: 'cold',
          maintenance_mode: true,
        })
      ).id;

    const { page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto('/alerts?category=maintenance');
    const items = page.getByTestId('alert-item');
    const north = items.filter({ hasText: 'Filter zone North' });
    const south = items.filter({ hasText: 'Filter zone South' });
    await expect.poll(() => north.count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => south.count(), { timeout: 20_000 }).toBe(1);

    const filters = page.getByRole('region', { name: 'Filters' });
    const search = filters.getByRole('searchbox', { name: 'Search zones' });
    if (await search.isVisible()) await search.fill('north');
    await filters.getByLabel('Zone', { exact: true }).selectOption({ label: 'Filter zone North' });
    await expect.poll(() => south.count(), { timeout: 10_000 }).toBe(0);
    expect(await north.count()).toBe(1);
    expect(new URL(page.url()).searchParams.get('zone_id')).toBe(zoneIds['Filter zone North']);

    // Emails per zone: maintenance off for the north zone only, saved at once, still there after a reload.
    await page.goto('/alerts/settings');
    const zoneRow = () => page.getByTestId('zone-email-settings').filter({ hasText: 'Filter zone North' });
    const open = async () => {
      const perZone = page.getByRole('searchbox', { name: 'Search zones' });
      if (await perZone.isVisible()) await perZone.fill('Filter zone North');
      const toggle = zoneRow().getByRole('button', { name: /Filter zone North/ });
      await toggle.click();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    };
    await open();
    await zoneRow().getByLabel('Maintenance', { exact: true }).selectOption('off');
    await page.getByText('The zone’s email settings are saved').waitFor();
    await expect.poll(() => zoneRow().getByRole('button').textContent()).toContain('1 choice of its own');

    await page.reload();
    await open();
    expect(await zoneRow().getByLabel('Maintenance', { exact: true }).inputValue()).toBe('off');
    expect(await zoneRow().getByLabel('Leak detected', { exact: true }).inputValue()).toBe('inherit');
    const saved = await asCustomer<{ alerts_instance_settings: Record<string, unknown> }>('GET', '/users/me');
    expect(saved.alerts_instance_settings[zoneIds['Filter zone North']!]).toEqual({
      maintenance: { email: false },
    });
  });
});
