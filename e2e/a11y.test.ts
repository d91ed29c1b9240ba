import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { DEMO, launchBrowser, newPage, signedIn, signIn } from './browser.ts';

/*
 * axe-core (WCAG 2.1 A and AA) over every page issue 18 added, as the roles that use them, in
 * English and in French, on a phone and a desktop. Lighthouse's accessibility score runs the same
 * engine on /login and the dashboard only (`npm run bench web`).
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

/** The page is drawn: its title is there and no section is still loading. */
async function settled(page: Page): Promise<void> {
  await page.locator('h1').first().waitFor();
  await expect
    .poll(() => page.locator('[role="status"].animate-spin, .animate-spin[role="status"]').count())
    .toBe(0);
}

async function walk(email: string | null, paths: string[], language: 'English' | 'Français', width: number) {
  const { context, page } = await newPage(browser);
  try {
    await page.setViewportSize({ width, height: width < 640 ? 844 : 800 });
    if (email) await signIn(page, email);
    else await page.goto('/login');
    await page
      .getByRole('button', {
        name: language === 'English' ? /^(English|Anglais), EN$/ : /^(Français|French), FR$/,
      })
      .click();
    for (const path of paths) {
      await page.goto(path);
      await settled(page);
      await expectAccessible(page, `${path} in ${language} at ${width} px`);
    }
  } finally {
    await context.close();
  }
}

describe('the pages of issue 18 pass axe', () => {
  it("a customer manager's: fleet, plumbers, maps, notifications, settings, registrations, users, end users, plumber accounts", async () => {
    const me = await signedIn(DEMO.customer)<{ customer_id: string }>('GET', '/users/me');
    const paths = [
      '/fleet',
      '/plumbers',
      '/plumbers/add',
      '/plumbers/map',
      '/map',
      '/notifications',
      '/settings',
      `/customers/${me.customer_id}/registrations`,
      '/users',
      `/customers/${me.customer_id}/end-users`,
      `/customers/${me.customer_id}/end-users/add`,
      `/customers/${me.customer_id}/plumber-users`,
      `/customers/${me.customer_id}/plumber-users/add`,
    ];
    await walk(DEMO.customer, paths, 'English', 1280);
    await walk(DEMO.customer, paths, 'Français', 390);
  });

  it("the provider's fleet and a visitor's registration form", async () => {
    await walk(DEMO.provider, ['/fleet', '/plumbers', '/users'], 'English', 390);
    await walk(null, ['/register'], 'Français', 1280);
    await walk(null, ['/register'], 'English', 390);
  });
});
