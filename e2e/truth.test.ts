import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatedFlowbox } from '@flowbox/simulator';
import { DEMO, launchBrowser, newPage, signedIn, signIn } from './browser.ts';
import { pairSimulatedDevice, subscribedZone } from './fixtures.ts';

/* Issue 15, "Screens that tell the truth": numbers and states the screens show are the true ones. */

const FACTORY_SECRET = 'E2E_truth_factory_secret_'.padEnd(43, 'x');

let browser: Browser;
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
