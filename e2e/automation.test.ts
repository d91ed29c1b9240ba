import { createDevice, type SimulatedFlowbox } from '@flowbox/simulator';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, DEMO, launchBrowser, mqttUrl, newPage } from './browser.ts';

const SERIAL = 'FB-E2E-AC0001';
const FACTORY_SECRET = 'E2E_automation_secret_'.padEnd(43, 'y');
const ZONE_NAME = 'Automation test zone';

let browser: Browser;
let device: SimulatedFlowbox | undefined;
let zonePage: string;
let ticker: NodeJS.Timeout | undefined;

/**
 * A litre-billed building with a subscribed zone, a simulated device paired through the three steps
 * (reporting every 2 s), and automatic closing at 10 L.
 */
async function zoneWithDevice(): Promise<string> {
  const asProvider = await apiAs(DEMO.provider, DEMO.password);
  const asCustomer = await apiAs(DEMO.customer, DEMO.password);
  const me = await asCustomer<{ customer_id: string }>('GET', '/users/me');
  const sites = await asCustomer<{ items: { id: string }[] }>(
    'GET',
    `/customers/${me.customer_id}/sites/list`,
  );
  const site = `/customers/${me.customer_id}/sites/${sites.items[0]!.id}`;
  const building = await asCustomer<{ id: string }>('POST', `${site}/buildings/create`, {
    name: 'Automation test building',
    type: 'office',
    address: '1 place Bellecour',
    city: 'Lyon',
    zipCode: '69002',
    country: 'FR',
    timezone: 'Europe/Paris',
    volume_unit: 'liter',
    currency: 'EUR',
    first_day_of_week: 'monday',
  });
  const zones = `${site}/buildings/${building.id}/zones`;
  const zone = await asCustomer<{ id: string }>('POST', `${zones}/create`, {
    name: ZONE_NAME,
    profile: 'housing',
    flowbox_model: 'one_inch_v1',
    water_temperature: 'cold',
  });
  const zonePath = `${zones}/${zone.id}`;
  const plan = await asProvider<{ id: string }>('POST', '/pricing_plans/create', {
    name: 'Automation test plan',
    is_default: false,
    regions: ['FR'],
    billing_type: 'monthly',
    acquisition_type: 'pay_as_you_go_fee',
    currency: 'EUR',
    volume_unit: 'liter',
    from_date: '2026-01-01',
    ranges: [{ volume_start: '0', volume_end: null, price_per_unit: '0.004' }],
  });
  await asCustomer('PUT', `${zonePath}/subscription/update`, {
    pricing_plan_id: plan.id,
    service_level: 'basic',
  });
  const flowbox = await asCustomer<{ id: string }>('POST', `${zonePath}/flowboxes/pair`, {
    serial: SERIAL,
    factory_secret: FACTORY_SECRET,
  });
  device = createDevice({
    serial: SERIAL,
    brokerUrl: mqttUrl(),
    factorySecret: FACTORY_SECRET,
    zone: { profile: 'housing', water_points: [], timezone: 'Europe/Paris' },
    model: 'one_inch_v1',
    waterTemperature: 'cold',
    seed: 8,
    intervalS: 2,
    pairingRetryMs: 500,
  });
  const paired = device.pair();
  for (let tries = 0; ; tries++) {
    const info = await asCustomer<{ pairing_state: string }>(
      'GET',
      `${zonePath}/flowboxes/${flowbox.id}/info`,
    );
    if (info.pairing_state === 'pending') break;
    if (tries > 60) throw new Error('the device did not announce itself');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await asCustomer('POST', `${zonePath}/flowboxes/${flowbox.id}/validate`);
  await paired;
  await device.start();
  // A lone device measures when ticked (a fleet runs this timer for its devices).
  ticker = setInterval(() => device?.tick(), 500);
  await asCustomer('PUT', `${zonePath}/automation/update`, {
    automatic_closing_enabled: true,
    volume_margin_enabled: true,
    volume_margin: 10,
    duration_margin_enabled: false,
    duration_margin_minutes: null,
  });
  return `${site}/building/${building.id}/zone/${zone.id}`;
}

async function signIn(page: Page, email: string) {
  await page.goto('/login');
  await page.getByRole('button', { name: 'English' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

const seen = (page: Page, text: string | RegExp) =>
  expect.poll(() => page.getByText(text).count(), { timeout: 20_000 }).toBeGreaterThan(0);

beforeAll(async () => {
  browser = await launchBrowser();
  zonePage = await zoneWithDevice();
});
afterAll(async () => {
  clearInterval(ticker);
  await device?.stop();
  await browser.close();
});

describe('automatic closing in the browser', () => {
  it('locks the zone live on a burst pipe, refuses a wrong name, and exits by the zone name', async () => {
    const { page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto(zonePage);
    await seen(page, 'Closes the water');
    await page.screenshot({ path: '/tmp/automation-card.png', fullPage: true });

    device!.setFaults([{ kind: 'burst_pipe' }]);
    const banner = page.getByTestId('automation-locked');
    await expect.poll(() => banner.count(), { timeout: 20_000 }).toBe(1);
    await seen(page, 'Automatic closing triggered: the water is closed');
    await seen(page, /The flowbox confirmed the closing/);
    // The zone's valve follows its device, live.
    await seen(page, /^Closed$/);
    await page.screenshot({ path: '/tmp/automation-locked.png', fullPage: true });

    await banner.getByRole('button', { name: 'Exit automatic closing' }).click();
    const dialog = page.getByRole('dialog');
    await seen(page, /This cannot be undone/);
    await dialog.getByLabel('Zone name').fill('Automation zone');
    await dialog.getByRole('button', { name: 'Exit automatic closing' }).click();
    await seen(page, "Both names don't match");
    await page.screenshot({ path: '/tmp/automation-exit.png' });
    await dialog.getByLabel('Zone name').fill(ZONE_NAME);
    await dialog.getByRole('button', { name: 'Exit automatic closing' }).click();
    await seen(page, 'Automatic closing exited: the zone is unlocked');
    await expect.poll(() => banner.count()).toBe(0);
    await seen(page, /Abnormal-volume detection rests until/);
  });
});
