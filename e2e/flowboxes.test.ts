import { createDevice, type SimulatedFlowbox } from '@flowbox/simulator';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, DEMO, launchBrowser, mqttUrl, newPage } from './browser.ts';

const SERIAL = 'FB-E2E-000001';
/** A factory secret as printed on a label (43 base64url characters, docs/protocol.md). */
const FACTORY_SECRET = 'E2E_factory_secret_'.padEnd(43, 'x');

let browser: Browser;
let device: SimulatedFlowbox | undefined;
let zonePage: string;

/** A French building with a one-inch cold-water zone subscribed to a plan: pairing needs one (spec §5). */
async function subscribedZone(): Promise<string> {
  const asProvider = await apiAs(DEMO.provider, DEMO.password);
  const asCustomer = await apiAs(DEMO.customer, DEMO.password);
  const me = await asCustomer<{ customer_id: string }>('GET', '/users/me');
  const sites = await asCustomer<{ items: { id: string }[] }>(
    'GET',
    `/customers/${me.customer_id}/sites/list`,
  );
  const site = `/customers/${me.customer_id}/sites/${sites.items[0]!.id}`;
  const building = await asCustomer<{ id: string }>('POST', `${site}/buildings/create`, {
    name: 'Flowbox test building',
    type: 'office',
    address: '1 place Bellecour',
    city: 'Lyon',
    zipCode: '69002',
    country: 'FR',
    timezone: 'Europe/Paris',
    volume_unit: 'm3',
    currency: 'EUR',
    first_day_of_week: 'monday',
  });
  const zones = `${site}/buildings/${building.id}/zones`;
  const zone = await asCustomer<{ id: string }>('POST', `${zones}/create`, {
    name: 'Flowbox test zone',
    profile: 'office',
    flowbox_model: 'one_inch_v1',
    water_temperature: 'cold',
  });
  const plan = await asProvider<{ id: string }>('POST', '/pricing_plans/create', {
    name: 'Flowbox test plan',
    is_default: false,
    regions: ['FR'],
    billing_type: 'monthly',
    acquisition_type: 'pay_as_you_go_fee',
    currency: 'EUR',
    volume_unit: 'm3',
    from_date: '2026-01-01',
    ranges: [{ volume_start: '0', volume_end: null, price_per_unit: '3.5' }],
  });
  await asCustomer('PUT', `${zones}/${zone.id}/subscription/update`, {
    pricing_plan_id: plan.id,
    service_level: 'basic',
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
  expect.poll(() => page.getByText(text).count(), { timeout: 15_000 }).toBeGreaterThan(0);

beforeAll(async () => {
  browser = await launchBrowser();
  zonePage = await subscribedZone();
});
afterAll(async () => {
  await device?.stop();
  await browser.close();
});

describe('flowboxes in the browser', () => {
  it('pairs a simulated device in three steps, closes its valve live, shows its autotest result, and detaches it by its serial', async () => {
    const { page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto(zonePage);

    // Step 1/3: prepare pairing from the zone's Flowbox section.
    await page.getByRole('button', { name: 'Pair a flowbox' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Serial').fill(SERIAL);
    await dialog.getByLabel('Factory secret').fill(FACTORY_SECRET);
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await seen(page, 'Waiting for the device');

    // Step 2/3: the device announces itself; the window moves on by itself (live channel).
    device = createDevice({
      serial: SERIAL,
      brokerUrl: mqttUrl(),
      factorySecret: FACTORY_SECRET,
      zone: { profile: 'office', water_points: [], timezone: 'Europe/Paris' },
      model: 'one_inch_v1',
      waterTemperature: 'cold',
      seed: 4,
      pairingRetryMs: 1000,
    });
    const paired = device.pair();
    await expect
      .poll(() => dialog.getByRole('button', { name: 'Validate pairing' }).count(), { timeout: 15_000 })
      .toBe(1);
    await expect(dialog.getByRole('row', { name: /Model/ }).textContent()).resolves.toContain('1"');

    // Step 3/3: finalise; the device receives its own credentials and signs in with them.
    await dialog.getByRole('button', { name: 'Validate pairing' }).click();
    await paired;
    await device.start();
    await seen(page, 'Flowbox paired');

    await page.getByRole('link', { name: SERIAL }).click();
    await page.waitForURL(/\/flowbox\/[0-9a-f-]{36}$/);
    await seen(page, 'Connected');
    const valve = page.getByTestId('flowbox-valve');
    await expect.poll(() => valve.getAttribute('data-valve'), { timeout: 15_000 }).toBe('opened');

    // Closing the valve is confirmed first, then its state changes without a reload.
    await page.getByRole('button', { name: 'Close the valve' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Close the valve' }).click();
    await expect.poll(() => valve.getAttribute('data-valve'), { timeout: 15_000 }).toBe('closed');
    await expect
      .poll(() => page.getByTestId('last-command').getByTestId('command-status').getAttribute('data-status'))
      .toBe('done');

    await page.getByRole('button', { name: 'Run an autotest' }).click();
    const result = page.getByTestId('autotest-result').locator('[data-result]');
    await expect.poll(() => result.getAttribute('data-result'), { timeout: 15_000 }).toBe('all_succeeded');
    await seen(page, 'All succeeded');

    // Detaching is confirmed by typing the serial (spec §4, §5); a wrong one is refused in place.
    await page.getByRole('button', { name: 'Detach' }).click();
    const confirm = page.getByRole('dialog');
    await confirm.getByLabel('Serial to confirm').fill('FB-E2E-000002');
    await confirm.getByRole('button', { name: 'Detach' }).click();
    await seen(page, "Both names don't match");
    await confirm.getByLabel('Serial to confirm').fill(SERIAL);
    await confirm.getByRole('button', { name: 'Detach' }).click();
    await page.waitForURL((url) => url.pathname === zonePage);
    await seen(page, 'No flowbox paired yet');
  });
});
