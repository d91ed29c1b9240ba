import type { Browser, Locator, Page } from 'playwright-core';
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
    await seen(page, 'There are no text messages (SMS).');
    await page.getByRole('heading', { name: 'Notifications on this device' }).waitFor();
    await page.getByRole('radio', { name: 'Français' }).check();
    await page.getByRole('heading', { name: 'Canaux de notification' }).waitFor();
    const me = await signedIn(DEMO.site)<{ language: string }>('GET', '/users/me');
    expect(me.language).toBe('fr');
    await page.getByRole('radio', { name: 'English' }).check();
    await page.getByRole('heading', { name: 'Notification channels' }).waitFor();
    await context.close();
  });
});

/**
 * A choice saved as it is made (a box ticked, a radio or a select changed) shows that choice from
 * the click on, while the save is still on the wire: the control must not fall back to the value
 * last read from the server. Each write is held here until the control has been looked at.
 */
describe('a setting saved on change', () => {
  async function whileSaving(page: Page, change: () => Promise<void>, shown: () => Promise<unknown>) {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let held = 0;
    // The page's own upkeep is not a save: a token refresh, and the live stream's ticket (the
    // stream is renewed with each 5 s access token here, so a ticket can fall inside the click).
    const writes = (url: URL) =>
      url.pathname.startsWith('/v1/') &&
      !url.pathname.endsWith('/users/refresh') &&
      !url.pathname.startsWith('/v1/live/');
    await page.route(writes, async (route) => {
      if (route.request().method() === 'GET') return route.fallback();
      held++;
      await gate;
      await route.fallback();
    });
    await change();
    await expect.poll(() => held, { timeout: TIMEOUT }).toBe(1);
    const value = await shown();
    release();
    await page.unroute(writes);
    return value;
  }

  /**
   * A settings box clicked: it shows the click while its save is held, the page says `notice` once
   * saved, then it is set back as it was. `saved` and `restored` wait for what the screen (or the
   * API) shows once each of the two writes is done, given the box's state before the click.
   */
  async function clickSavedAndRestore(
    page: Page,
    box: Locator,
    notice: string,
    wait: { saved: (before: boolean) => Promise<void>; restored: (before: boolean) => Promise<void> },
  ) {
    await box.waitFor();
    const before = await box.isChecked();
    expect(
      await whileSaving(
        page,
        () => box.click(),
        () => box.isChecked(),
      ),
    ).toBe(!before);
    await page.getByText(notice).first().waitFor();
    await wait.saved(before);
    await box.setChecked(before);
    await wait.restored(before);
  }

  it("keeps a manager's own alert choices as clicked: a box, a zone's select, the language", async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto('/settings');
    const box = page.getByRole('checkbox', { name: 'Maintenance', exact: true });
    await clickSavedAndRestore(page, box, 'Your alert settings are saved', {
      saved: (before) => expect.poll(() => box.isChecked()).toBe(!before),
      restored: (before) =>
        expect
          .poll(() =>
            signedIn(DEMO.customer)<{ alerts_settings: { maintenance: { email: boolean } } }>(
              'GET',
              '/users/me',
            ).then((me) => me.alerts_settings.maintenance.email),
          )
          .toBe(before),
    });

    const zone = page.getByTestId('zone-email-settings').first();
    await zone.getByRole('button').first().click();
    const select = zone.getByLabel('Maintenance', { exact: true });
    const was = await select.inputValue();
    const other = was === 'off' ? 'on' : 'off';
    expect(
      await whileSaving(
        page,
        () => select.selectOption(other).then(() => undefined),
        () => select.inputValue(),
      ),
    ).toBe(other);
    await page.getByText('The zone’s email settings are saved').first().waitFor();
    await select.selectOption(was);
    await expect.poll(() => select.inputValue()).toBe(was);

    const french = page.getByRole('radio', { name: 'Français' });
    expect(
      await whileSaving(
        page,
        () => french.click(),
        () => french.isChecked(),
      ),
    ).toBe(true);
    await page.getByRole('heading', { name: 'Canaux de notification' }).waitFor();
    await page.getByRole('radio', { name: 'English' }).check();
    await page.getByRole('heading', { name: 'Notification channels' }).waitFor();
    await context.close();
  });

  it("keeps the provider's service-wide category flags as clicked", async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, DEMO.provider);
    await page.goto('/settings');
    const box = page.getByRole('checkbox', { name: 'Premium only: Maintenance', exact: true });
    await clickSavedAndRestore(page, box, 'The category setting is saved', {
      saved: () => expect.poll(() => box.isEnabled()).toBe(true),
      restored: async (before) => {
        await expect.poll(() => box.isEnabled()).toBe(true);
        expect(await box.isChecked()).toBe(before);
      },
    });
    await context.close();
  });
});
