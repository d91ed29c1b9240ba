import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, launchBrowser, newPage, seen, signedIn, signIn } from './browser.ts';

/*
 * The people screen (`/users`, issue 18): a manager sees everyone with access to its scope, across
 * roles, and never the people of another customer nor the provider's own managers.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

const TIMEOUT = 20_000;

describe('the users screen', () => {
  it("shows a customer manager its customer's people, filtered by role and searched; in French too", async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    const row = (name: string) => page.getByRole('row', { name: new RegExp(name) });
    await expect.poll(() => row('Claire Customer').count(), { timeout: TIMEOUT }).toBe(1);
    await expect.poll(() => row('Samuel Site').count(), { timeout: TIMEOUT }).toBe(1);
    expect(await row('Paula Provider').count()).toBe(0);

    await page.getByLabel('Role').selectOption('site_manager');
    await expect.poll(() => row('Claire Customer').count(), { timeout: TIMEOUT }).toBe(0);
    expect(await row('Samuel Site').count()).toBe(1);

    await page.getByLabel('Role').selectOption('');
    await page.getByRole('searchbox', { name: 'Search by name or email' }).fill('claire');
    await expect.poll(() => row('Samuel Site').count(), { timeout: TIMEOUT }).toBe(0);
    expect(await row('Claire Customer').count()).toBe(1);

    await page.getByRole('button', { name: 'French' }).click();
    await page.getByRole('heading', { level: 1, name: 'Utilisateurs' }).waitFor();
    await page.getByRole('button', { name: /^(English|Anglais), EN$/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await context.close();
  });

  it("shows the provider the customers' people too", async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, DEMO.provider);
    await page.goto('/users');
    const search = page.getByRole('searchbox', { name: 'Search by name or email' });
    await search.fill('demo.flowbox.local');
    for (const name of ['Paula Provider', 'Claire Customer', 'Samuel Site'])
      await expect
        .poll(() => page.getByRole('row', { name: new RegExp(name) }).count(), { timeout: TIMEOUT })
        .toBe(1);
    await context.close();
  });
});

describe('the settings page', () => {
  it('saves the language to the profile and switches the screens at once; names the channels there are', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, DEMO.site);
    await page.goto('/settings');
    await page.getByRole('heading', { name: 'Notification channels' }).waitFor();
    await seen(page, 'There are no text messages (SMS) or phone push notifications.');
    await page.getByRole('radio', { name: 'Français' }).check();
    await page.getByRole('heading', { name: 'Canaux de notification' }).waitFor();
    const me = await signedIn(DEMO.site)<{ language: string }>('GET', '/users/me');
    expect(me.language).toBe('fr');
    await page.getByRole('radio', { name: 'English' }).check();
    await page.getByRole('heading', { name: 'Notification channels' }).waitFor();
    await context.close();
  });
});
