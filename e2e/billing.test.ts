import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, launchBrowser, newPage, signIn, seen } from './browser.ts';
import { testZone } from './fixtures.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

describe('subscriptions in the browser', () => {
  it('a provider manager creates a tiered plan, and a customer manager subscribes a zone to it', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, DEMO.provider);
    await page.getByRole('link', { name: 'Subscriptions' }).first().click();
    await page.getByRole('link', { name: 'Manage pricing plans' }).click();
    await page.getByRole('link', { name: 'Add a pricing plan' }).click();
    await page.waitForURL(/\/subscriptions\/pricing-plans\/add$/);
    await page.getByLabel('Name', { exact: true }).fill('Tiered water France');
    await page.getByRole('textbox', { name: 'Countries' }).fill('FR, BE');
    await page.getByLabel('Billing', { exact: true }).selectOption('monthly');
    await page.getByLabel('To volume').first().fill('10');
    await page.getByLabel('Price per unit').first().fill('1,5');
    await page.getByRole('button', { name: 'Add a range' }).click();
    await page.getByLabel('Price per unit').nth(1).fill('2.25');
    expect(await page.getByLabel('From volume').nth(1).inputValue()).toBe('10');
    await page.getByRole('button', { name: 'Create the plan' }).click();
    await page.waitForURL(/\/subscriptions\/pricing-plans$/);
    await expect.poll(() => page.getByRole('link', { name: 'Tiered water France' }).count()).toBe(1);
    await seen(page, /0–10: 1\.5 · 10–no end: 2\.25/);
    await context.close();

    // A zone in a building in France billed in euros, made through the API as the customer manager.
    const zone = await testZone('Billing');
    const customer = await newPage(browser);
    await signIn(customer.page, DEMO.customer);
    await customer.page.goto(`${zone.page}/subscription`);
    await seen(customer.page, 'This zone has no subscription yet.');
    await customer.page.getByLabel('Pricing plan').selectOption({ label: 'Tiered water France' });
    await customer.page.getByLabel('Service level').selectOption('premium');
    await customer.page.getByRole('button', { name: 'Choose the subscription' }).click();
    await seen(customer.page, 'Subscription saved');
    await expect.poll(() => customer.page.getByText('This zone has no subscription yet.').count()).toBe(0);
    await seen(customer.page, 'Next renewal');
    await expect
      .poll(() => customer.page.getByRole('button', { name: 'Change the subscription' }).count())
      .toBe(1);
    await customer.context.close();
  });

  it('shows a range error in place, in French', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, DEMO.provider);
    await page.getByRole('button', { name: 'French' }).click();
    await page.goto('/subscriptions/pricing-plans/add');
    await page.getByLabel('Nom', { exact: true }).fill('Offre erronée');
    await page.getByRole('textbox', { name: 'Pays' }).fill('FR');
    await page.getByLabel('Du volume').first().fill('5');
    await page.getByLabel('Prix unitaire').first().fill('1');
    await page.getByRole('button', { name: 'Créer l’offre' }).click();
    await seen(page, 'La première tranche commence à 0');
    expect(page.url()).toMatch(/\/subscriptions\/pricing-plans\/add$/);
    // Back to English for the other tests' sake: the language is saved on the profile.
    await page.getByRole('button', { name: 'Anglais' }).click();
    await seen(page, 'The first range starts at 0');
    await context.close();
  });
});
