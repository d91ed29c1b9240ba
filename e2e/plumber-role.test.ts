import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { DEMO, launchBrowser, newPage, seen, signedIn, signIn } from './browser.ts';
import { sidewaysScrolls } from './layout.ts';

/*
 * docs/permissions.md "End users and plumbers", issue 18: a plumber invited on one site reads that
 * site, its zones and flowboxes, and is offered only what it may do there (pairing, autotest,
 * maintenance mode); another site, the customer's record, billing and managers stay closed.
 */

type Item = { id: string; name: string };

let browser: Browser;
let customerId: string;
let site: Item;
let otherSite: Item;
let zonePage: string;
let flowboxPage: string;
let flowboxSerial: string;
const email = `pia.pipes.${Date.now()}@example.test`;
const password = 'plumber-pass-1';

beforeAll(async () => {
  browser = await launchBrowser();
  const asCustomer = signedIn(DEMO.customer);
  customerId = (await asCustomer<{ customer_id: string }>('GET', '/users/me')).customer_id;
  const customer = `/customers/${customerId}`;
  const sites = (await asCustomer<{ items: Item[] }>('GET', `${customer}/sites/list`)).items;
  site = sites.find((s) => s.name === 'Grenoble Residence')!;
  expect(site).toBeDefined();
  // The demo's paired flowbox of "Flat 101" in "Résidence Les Alpes".
  const sitesApi = `${customer}/sites/${site.id}`;
  const buildings = await asCustomer<{ items: Item[] }>('GET', `${sitesApi}/buildings/list`);
  const building = buildings.items.find((b) => b.name === 'Résidence Les Alpes')!;
  const zones = await asCustomer<{ items: Item[] }>('GET', `${sitesApi}/buildings/${building.id}/zones/list`);
  const zone = zones.items.find((z) => z.name === 'Flat 101')!;
  const flowboxes = await asCustomer<{ items: { id: string; serial: string; pairing_state: string }[] }>(
    'GET',
    `${sitesApi}/buildings/${building.id}/zones/${zone.id}/flowboxes/list`,
  );
  const flowbox = flowboxes.items.find((f) => f.pairing_state === 'ready')!;
  flowboxSerial = flowbox.serial;
  zonePage = `${sitesApi}/building/${building.id}/zone/${zone.id}`;
  flowboxPage = `${zonePage}/flowbox/${flowbox.id}`;
  otherSite = await asCustomer<Item>('POST', `${customer}/sites/create`, {
    name: `Not the plumber's ${Date.now()}`,
  });

  // The invitation, its password set through the emailed link as the plumber would.
  await asCustomer('POST', `${customer}/plumbers/create`, {
    firstname: 'Pia',
    lastname: 'Pipes',
    email,
    site_id: [site.id],
  });
  const outbox = await signedIn(DEMO.provider)<{ items: { to: string; text: string }[] }>('GET', '/outbox');
  const link = outbox.items
    .find((m) => m.to === email)
    ?.text.match(/https?:\/\/\S+\/set-password\?token=\S+/)?.[0];
  expect(link).toBeDefined();
  const { context, page } = await newPage(browser);
  await page.goto(new URL(link!).pathname + new URL(link!).search);
  await page.getByLabel('New password').fill(password);
  await page.getByLabel('Password confirmation').fill(password);
  await page.getByRole('button', { name: 'Save my password' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await context.close();
});
afterAll(async () => {
  await browser.close();
});

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' }).first();

/**
 * Opens an address inside the running app, as a typed link would once loaded: reloading for each
 * one would race the five-second tokens' refresh of the browser tests and sign the plumber out.
 */
async function openInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

describe('a plumber assigned to one site', () => {
  it('reads its site, zones and flowbox, with autotest and maintenance but no removal, valve or consumption', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, email, password);
    // Its navigation: dashboard, its sites, alerts, settings, profile; none of the managers' entries.
    const links = await nav(page).getByRole('link').allTextContents();
    expect(links).toEqual(['Dashboard', 'Sites', 'Notifications and alerts', 'Alert settings', 'My profile']);
    // Its dashboard: its one site and its zones, no figures of the day (consumption).
    const sites = page.getByRole('link', { name: site.name });
    await expect.poll(() => sites.count()).toBeGreaterThan(0);
    expect(await page.getByRole('link', { name: otherSite.name }).count()).toBe(0);
    expect(await page.getByTestId('dashboard-statistics').count()).toBe(0);
    await page.getByRole('link', { name: 'Flat 101' }).first().waitFor();

    await page.goto(`/customers/${customerId}/sites/${site.id}`);
    await page.getByRole('heading', { name: site.name, level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Résidence Les Alpes' }).waitFor();
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    expect(await page.getByTestId('consumption-card').count()).toBe(0);
    expect(await page.getByRole('link', { name: /Activity log/ }).count()).toBe(0);
    await expectAccessible(page, "a plumber's site page");

    await page.goto(zonePage);
    await page.getByRole('heading', { name: 'Flat 101', level: 1 }).waitFor();
    // Its zone has a flowbox already: pairing adds another (issue 30).
    await page.getByRole('button', { name: 'Pair another flowbox' }).waitFor();
    await page.getByRole('link', { name: flowboxSerial }).waitFor();
    expect(await page.getByRole('button', { name: 'Pair a flowbox' }).count()).toBe(0);
    expect(await page.getByTestId('consumption-card').count()).toBe(0);
    expect(await page.getByRole('link', { name: /subscription/i }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Close the valve|Open the valve/ }).count()).toBe(0);

    await page.getByRole('link', { name: flowboxSerial }).click();
    await page.waitForURL((url) => url.pathname === flowboxPage);
    await page.getByRole('button', { name: 'Run an autotest' }).waitFor();
    await page.getByRole('button', { name: 'Turn maintenance mode on' }).waitFor();
    await seen(page, 'As the installer, you can switch maintenance mode and run autotests');
    for (const name of ['Unpair', 'Detach', 'Reboot', /valve/i, /leak detection/i])
      expect(await page.getByRole('button', { name }).count(), String(name)).toBe(0);
    expect(await page.getByTestId('flowbox-consumption').count()).toBe(0);
    expect(await page.getByRole('link', { name: /Activity log/ }).count()).toBe(0);
    await expectAccessible(page, "a plumber's flowbox page");

    // The maintenance command goes out and is accepted by the server.
    await page.getByRole('button', { name: 'Turn maintenance mode on' }).click();
    await expect.poll(() => page.getByTestId('last-command').textContent()).toMatch(/maintenance/i);
    expect(await page.getByRole('alert').count()).toBe(0);

    // One French check: the installer's controls speak French.
    await page.getByRole('button', { name: /^(Français|French), FR$/ }).click();
    await seen(page, 'En tant qu’installateur');
    await page.getByRole('button', { name: 'Lancer un autotest' }).waitFor();
    await page.getByRole('button', { name: /^(English|Anglais), EN$/ }).click();
    await page.getByRole('button', { name: 'Run an autotest' }).waitFor();
    await context.close();
  });

  it('fits a phone in English and French: its pages scroll neither themselves nor a table sideways', async () => {
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, email, password);
      await page.setViewportSize({ width: 390, height: 844 });
      const problems: string[] = [];
      // Each page, its title, and what shows its lists are drawn (zones, buildings, flowboxes, controls).
      const pages: [string, (en: boolean) => string | RegExp, (en: boolean) => Locator][] = [
        [
          '/',
          (en) => (en ? 'Dashboard' : 'Tableau de bord'),
          () => page.getByRole('link', { name: 'Flat 101' }),
        ],
        [
          `/customers/${customerId}/sites/${site.id}`,
          () => site.name,
          () => page.getByRole('link', { name: 'Résidence Les Alpes' }),
        ],
        [zonePage, () => 'Flat 101', () => page.getByRole('link', { name: flowboxSerial })],
        [
          flowboxPage,
          () => new RegExp(flowboxSerial),
          (en) => page.getByRole('button', { name: en ? 'Run an autotest' : 'Lancer un autotest' }),
        ],
      ];
      for (const [language, button] of [
        ['en', /^(English|Anglais), EN$/],
        ['fr', /^(Français|French), FR$/],
      ] as const) {
        await page.getByRole('button', { name: button }).click();
        for (const [path, title, drawn] of pages) {
          await openInApp(page, path);
          await page.getByRole('heading', { name: title(language === 'en'), level: 1 }).waitFor();
          await drawn(language === 'en')
            .first()
            .waitFor();
          await expect.poll(() => page.locator('.animate-spin').count()).toBe(0);
          problems.push(...(await sidewaysScrolls(page)).map((p) => `${path} (${language}): ${p}`));
        }
      }
      await page.getByRole('button', { name: /^(English|Anglais), EN$/ }).click();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('follows an alert link of the old address to its notifications, and is not offered to call a plumber', async () => {
    // A zone of its site in maintenance mode: the sweep raises a maintenance alert (docs/alerts.md).
    const asCustomer = signedIn(DEMO.customer);
    const sitesApi = `/customers/${customerId}/sites/${site.id}`;
    const buildingName = `Plumber alert building ${Date.now()}`;
    const building = await asCustomer<Item>('POST', `${sitesApi}/buildings/create`, {
      name: buildingName,
      type: 'office',
      address: '1 rue Félix Poulat',
      city: 'Grenoble',
      zipCode: '38000',
      country: 'FR',
      timezone: 'Europe/Paris',
      volume_unit: 'm3',
      currency: 'EUR',
      first_day_of_week: 'monday',
    });
    const zone = await asCustomer<Item>('POST', `${sitesApi}/buildings/${building.id}/zones/create`, {
      name: 'Plumber alert zone',
      profile: 'office',
      flowbox_model: 'one_inch_v1',
      water_temperature: 'cold',
      maintenance_mode: true,
    });
    const { context, page } = await newPage(browser);
    try {
      await expect
        .poll(
          async () =>
            (
              await signedIn(email, password)<{ items: unknown[] }>(
                'GET',
                `/alerts/list?zone_id=${zone.id}&state=active`,
              )
            ).items.length,
          { timeout: 30_000 },
        )
        .toBeGreaterThan(0);
      await signIn(page, email, password);
      // The address older alert emails carry.
      await page.goto(`/alerts?zone_id=${zone.id}`);
      await page.waitForURL((url) => url.pathname === '/notifications');
      expect(new URL(page.url()).searchParams.get('zone_id')).toBe(zone.id);
      const item = page.getByTestId('alert-item').filter({ hasText: 'Plumber alert zone' });
      await item.first().waitFor();
      // The server answers the nearest plumbers to managers only (docs/maps.md).
      expect(await item.getByRole('button', { name: /Call a plumber/ }).count()).toBe(0);
      // The former settings address leads to its own settings, as for every role.
      await page.goto('/alerts/settings');
      await page.waitForURL((url) => url.pathname === '/settings');
      await page.getByRole('heading', { name: 'Alert settings', level: 1 }).waitFor();
    } finally {
      await context.close();
      await asCustomer('DELETE', `${sitesApi}/buildings/${building.id}/delete`, {
        confirm_name: buildingName,
      });
    }
  });

  it('has its own settings: its language and channels, and is told it is not emailed alerts', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, email, password);
    await nav(page).getByRole('link', { name: 'Alert settings' }).click();
    await page.getByRole('heading', { name: 'Alert settings', level: 1 }).waitFor();
    await seen(page, 'Plumbers are not emailed alerts');
    expect(await page.getByRole('checkbox', { name: 'Receive alert emails' }).count()).toBe(0);
    expect(await page.getByText('Categories (whole service)').count()).toBe(0);
    await expectAccessible(page, "a plumber's settings");
    await page.getByRole('radio', { name: 'Français' }).check();
    await page.getByRole('heading', { name: 'Réglages des alertes', level: 1 }).waitFor();
    await seen(page, 'Les plombiers ne reçoivent pas d’alertes par e-mail');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await sidewaysScrolls(page)).toEqual([]);
    await expectAccessible(page, "a plumber's settings in French, 390 px");
    await page.getByRole('radio', { name: 'English' }).check();
    await page.getByRole('heading', { name: 'Alert settings', level: 1 }).waitFor();
    await context.close();
  });

  it('does not see another site, and is sent home from billing, managers and the customer', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, email, password);
    await page.goto(`/customers/${customerId}/sites/${otherSite.id}`);
    await page.getByRole('heading', { name: 'Access denied' }).waitFor();
    expect(await page.getByText(otherSite.name).count()).toBe(0);

    for (const path of [
      `/customers/${customerId}`,
      `/customers/${customerId}/customer-managers`,
      `/customers/${customerId}/sites/${site.id}/site-managers`,
      `/customers/${customerId}/sites/${site.id}/events`,
      `${zonePage}/subscription`,
      '/subscriptions',
      '/plumbers',
      '/firmware',
    ]) {
      await openInApp(page, path);
      await page.waitForURL((url) => url.pathname === '/');
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    }
    await context.close();
  });
});
