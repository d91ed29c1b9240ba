import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { DEMO, launchBrowser, newPage, seen, signedIn, signIn } from './browser.ts';
import { sidewaysScrolls } from './layout.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

describe("a customer's webhooks in the browser (issue 33, docs/webhooks.md)", () => {
  it('adds a webhook, shows its secret once, and fits 1280 and 390 px', async () => {
    const asCustomer = signedIn(DEMO.customer);
    const { customer_id } = await asCustomer<{ customer_id: string }>('GET', '/users/me');
    const hooks = `/customers/${customer_id}/webhooks`;
    for (const hook of (await asCustomer<{ items: { id: string }[] }>('GET', `${hooks}/list`)).items)
      await asCustomer('DELETE', `${hooks}/${hook.id}/delete`);
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, DEMO.customer);
      await page.goto(`/customers/${customer_id}/webhooks`);
      await page.getByRole('heading', { name: 'Webhooks', exact: true }).waitFor();
      await seen(page, 'No webhook yet.');

      await page.getByRole('button', { name: 'Add a webhook' }).click();
      const form = page.getByRole('dialog', { name: 'New webhook' });
      await form.getByLabel('Address (https://)').fill('https://hooks.example.com/flowbox');
      await form.getByLabel('Description').fill('ERP');
      await form.getByLabel('Valve closed').check();
      // Disabled: the suite's server never calls out of the machine.
      await form.getByLabel('Enabled').uncheck();
      await form.getByRole('button', { name: 'Save' }).click();
      const secret = page.getByRole('dialog', { name: 'The webhook’s secret' });
      await secret.waitFor();
      expect(await secret.getByRole('textbox').inputValue()).toMatch(/^whsec_/);
      await secret.getByRole('button', { name: 'Close' }).last().click();
      await page.getByRole('heading', { name: 'ERP' }).waitFor();
      await page.getByRole('button', { name: 'Show the delivery log' }).click();
      await seen(page, 'No delivery yet.');
      await expectAccessible(page, 'the webhooks page');
      await page.screenshot({ path: '/tmp/webhooks-1280.png', fullPage: true });

      await page.setViewportSize({ width: 390, height: 844 });
      expect(await sidewaysScrolls(page)).toEqual([]);
      await page.screenshot({ path: '/tmp/webhooks-390.png', fullPage: true });
    } catch (error) {
      await page.screenshot({ path: '/tmp/webhooks-failure.png' }).catch(() => undefined);
      throw error;
    } finally {
      await context.close();
    }
    const [hook] = (
      await asCustomer<{ items: { id: string; enabled: boolean; events: string[] }[] }>(
        'GET',
        `${hooks}/list`,
      )
    ).items;
    expect(hook).toMatchObject({
      enabled: false,
      events: ['alert.opened', 'alert.resolved', 'valve.closed'],
    });
  });
});
