import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatedFlowbox } from '@flowbox/simulator';
import { DEMO, launchBrowser, newPage, signedIn, signIn } from './browser.ts';
import {
  pairSimulatedDevice,
  subscribedZone,
  testZone,
  type SubscribedZone,
  type TestZone,
} from './fixtures.ts';

/* Issue 15, "Screens that tell the truth": numbers and states the screens show are the true ones. */

const FACTORY_SECRET = 'E2E_truth_factory_secret_'.padEnd(43, 'x');

let browser: Browser;

/** Subscribes an existing test zone to a plan of its own, as `subscribedZone` does a new one. */
async function subscribedZoneFor(zone: TestZone): Promise<SubscribedZone> {
  const plan = await signedIn(DEMO.provider)<{ id: string }>('POST', '/pricing_plans/create', {
    name: `${zone.name} plan`,
    is_default: false,
    regions: ['FR'],
    billing_type: 'monthly',
    acquisition_type: 'pay_as_you_go_fee',
    currency: 'EUR',
    volume_unit: 'm3',
    from_date: '2026-01-01',
    ranges: [
      { volume_start: '0', volume_end: '10', price_per_unit: '2' },
      { volume_start: '10', volume_end: null, price_per_unit: '3.5' },
    ],
  });
  await signedIn(DEMO.customer)('PUT', `${zone.api}/subscription/update`, {
    pricing_plan_id: plan.id,
    service_level: 'basic',
  });
  return { ...zone, planId: plan.id };
}
const devices: SimulatedFlowbox[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  for (const device of devices) await device.stop();
  await browser.close();
});

describe('screens that tell the truth', () => {
  it('counts a customer’s paired flowboxes on the customers list, live, without a reload', async () => {
    const zone = await subscribedZone('Counted');
    const me = await signedIn(DEMO.customer)<{ customer_id: string }>('GET', '/users/me');
    const customer = await signedIn(DEMO.provider)<{ name: string; flowbox_count: number }>(
      'GET',
      `/customers/${me.customer_id}/info`,
    );
    const { page } = await newPage(browser);
    await signIn(page, DEMO.provider);
    await page.goto('/customers');
    const row = page.getByRole('row', { name: new RegExp(customer.name) });
    const count = row.getByRole('cell').nth(1);
    await expect.poll(() => count.textContent(), { timeout: 15_000 }).toBe(String(customer.flowbox_count));

    const { simulated, flowboxApi } = await pairSimulatedDevice(zone, {
      serial: 'FB-E2E-TRUTH-01',
      factorySecret: FACTORY_SECRET,
    });
    devices.push(simulated);
    await expect
      .poll(() => count.textContent(), { timeout: 15_000 })
      .toBe(String(customer.flowbox_count + 1));

    await signedIn(DEMO.customer)('DELETE', `${flowboxApi}/detach`, { confirm_name: 'FB-E2E-TRUTH-01' });
    await expect.poll(() => count.textContent(), { timeout: 15_000 }).toBe(String(customer.flowbox_count));
  });
});

describe('facts that agree', () => {
  it('shows on its floor the flowbox paired there', async () => {
    const zone = await subscribedZone('Floor');
    const building = zone.api.replace(/\/zones\/[^/]+$/, '');
    const floor = await signedIn(DEMO.customer)<{ id: string }>('POST', `${building}/floors/create`, {
      label: '2nd floor',
    });
    const { simulated } = await pairSimulatedDevice(zone, {
      serial: 'FB-E2E-TRUTH-FLOOR',
      factorySecret: FACTORY_SECRET,
      floorId: floor.id,
    });
    devices.push(simulated);
    const { page, context } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto(zone.page.replace(/\/zone\/[^/]+$/, ''));
    const row = page.getByRole('row', { name: /2nd floor/ });
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('FB-E2E-TRUTH-FLOOR');
    expect(await row.textContent()).not.toContain('No flowbox paired');
    await expect(row.getByRole('link', { name: 'FB-E2E-TRUTH-FLOOR' }).count()).resolves.toBe(1);
    await context.close();
  });

  it('tells the water points recorded, and the number declared only where it differs', async () => {
    const zone = await testZone('Water points');
    await signedIn(DEMO.customer)('POST', `${zone.api}/water_points/create`, { label: 'Sink', type: 'sink' });
    const { page, context } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto(zone.page);
    const fact = page.getByTestId('water-points-fact');
    await expect.poll(() => fact.textContent(), { timeout: 15_000 }).toBe('1 water point recorded');
    // Nothing else on the page says otherwise ("Number of water points: Not set").
    expect(await page.getByText('Number of water points').count()).toBe(0);

    await signedIn(DEMO.customer)('PUT', `${zone.api}/update`, { water_point_number: 3 });
    await page.reload();
    await expect
      .poll(() => fact.textContent(), { timeout: 15_000 })
      .toBe('1 water point recorded3 declared in the zone’s settings');
    await context.close();
  });
});

describe('a new zone', () => {
  it('shows what it still needs, ticked when done, and no made-up valve or service level', async () => {
    const zone = await testZone('Checklist');
    const { page, context } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto(zone.page);
    const checklist = page.getByTestId('zone-checklist');
    await checklist.waitFor({ timeout: 15_000 });
    const step = (key: string) => checklist.getByTestId(`checklist-${key}`);
    expect(await step('subscription').getAttribute('data-done')).toBe('false');
    expect(await step('flowbox').getAttribute('data-done')).toBe('false');
    expect(await step('automation').getAttribute('data-done')).toBe('false');
    expect(await checklist.textContent()).toContain('This zone still needs 3 things');
    expect(await step('flowbox').textContent()).toContain(
      'Pairing is refused until the zone has a subscription',
    );
    const general = page
      .locator('section')
      .filter({ has: page.getByRole('heading', { name: 'General information' }) });
    await expect.poll(() => general.textContent()).toContain('No subscription');
    expect(await general.textContent()).toContain('No flowbox');
    expect(await general.textContent()).not.toContain('Basic');
    expect(await general.textContent()).not.toMatch(/Valve\s*Open/);

    // Each step links to where it is done.
    await step('subscription').getByRole('link', { name: 'Choose a subscription' }).click();
    await page.waitForURL(/\/subscription$/);
    await page.goBack();
    await step('automation').getByRole('link', { name: 'Set up automatic closing' }).click();
    await page.waitForURL(/#automatic-closing$/);

    // A subscription, then a paired flowbox: ticked.
    const subscribed = await subscribedZoneFor(zone);
    const { simulated } = await pairSimulatedDevice(subscribed, {
      serial: 'FB-E2E-TRUTH-CHECK',
      factorySecret: FACTORY_SECRET,
    });
    devices.push(simulated);
    await page.reload();
    // A reload of the whole app on a machine running the other browser group too: a loaded CI took
    // more than 15 s once.
    await checklist.waitFor({ timeout: 30_000 });
    expect(await step('subscription').getAttribute('data-done')).toBe('true');
    expect(await step('flowbox').getAttribute('data-done')).toBe('true');
    expect(await checklist.textContent()).toContain('This zone still needs 1 thing');
    await context.close();
  });
});

describe('an empty consumption graph', () => {
  it('says what is true of the zone’s flowbox instead of asking to pair one', async () => {
    const zone = await subscribedZone('Empty state');
    const { page, context } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto(zone.page);
    const empty = page.getByTestId('consumption-empty');
    await expect
      .poll(() => empty.textContent(), { timeout: 15_000 })
      .toContain('Pair a flowbox in this zone');

    // Paired, its device not started yet: it has not connected.
    const { simulated } = await pairSimulatedDevice(zone, {
      serial: 'FB-E2E-TRUTH-EMPTY',
      factorySecret: FACTORY_SECRET,
    });
    devices.push(simulated);
    await page.reload();
    await expect
      .poll(() => empty.textContent(), { timeout: 15_000 })
      .toContain('Flowbox FB-E2E-TRUTH-EMPTY is paired but has not connected yet');
    expect(await empty.textContent()).not.toContain('Pair a flowbox in this zone');
    await context.close();
  });
});

describe('the price that bills', () => {
  it('is the subscription plan’s tiers, the current one highlighted, and says where it comes from', async () => {
    const zone = await testZone('Tiers');
    const { page, context } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto(zone.page);
    const card = page.getByTestId('price-tiers');
    await expect
      .poll(() => card.textContent(), { timeout: 15_000 })
      .toContain('No subscription: the water used here is not priced.');

    await subscribedZoneFor(zone);
    await page.reload();
    const tiers = card.getByTestId('price-tier');
    await expect.poll(() => tiers.count(), { timeout: 15_000 }).toBe(2);
    expect(await tiers.nth(0).textContent()).toContain('From 0 to 10 m³€2.00 per m³current tier');
    expect(await tiers.nth(0).getAttribute('aria-current')).toBe('true');
    expect(await tiers.nth(1).textContent()).toBe('From 10 m³€3.50 per m³');
    const plan = card.getByRole('link', { name: 'Billed by the “Tiers test zone plan” subscription plan' });
    await plan.click();
    await page.waitForURL(/\/subscription$/);
    await context.close();
  });
});
