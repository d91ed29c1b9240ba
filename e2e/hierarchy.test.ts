import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, launchBrowser, newPage, signedIn, signIn, seen } from './browser.ts';
import { customerSite } from './fixtures.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

/** A real 2×2 PNG (the server checks the magic bytes, not the name). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGPgW/oSiBggFAApsgZx/T7YngAAAABJRU5ErkJggg==',
  'base64',
);

/** The building form's mandatory fields; the unit, currency, week and time zone keep their defaults. */
async function fillBuilding(page: Page, name: string) {
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Building type').selectOption({ label: 'Office' });
  await page.getByLabel('Address').fill('12 quai Perrache');
  await page.getByLabel('Zip code').fill('69002');
  await page.getByLabel('City').fill('Lyon');
  await page.getByLabel('Country').selectOption('FR');
}

async function fillZone(page: Page, name: string, floor: string) {
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Floor').selectOption({ label: floor });
  await page.getByLabel('Profile').selectOption('sanitary');
  await page.getByLabel('Flowbox model').selectOption('one_inch_v1');
  await page.getByLabel('Water', { exact: true }).selectOption('cold');
}

async function addFloor(page: Page, label: string) {
  await page.getByRole('button', { name: 'Add a floor' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Label').fill(label);
  await dialog.getByRole('button', { name: 'Add the floor' }).click();
  await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  await expect.poll(() => page.getByRole('rowheader', { name: label, exact: true }).count()).toBe(1);
}

describe('the hierarchy in the browser', () => {
  it("creates a building with a picture, adds two floors and a zone, and reads the zone's log in French", async () => {
    const site = await customerSite(signedIn(DEMO.customer), 'Lyon Part-Dieu Campus');
    const { context, page } = await newPage(browser);
    await signIn(page, DEMO.customer);

    await page.goto(site);
    await page.getByRole('link', { name: 'Add a building' }).first().click();
    await page.waitForURL(/\/building\/add$/);
    await fillBuilding(page, 'Tower B');
    await page.getByRole('button', { name: 'Create the building' }).click();
    await seen(page, 'Building added');
    await page.waitForURL(/\/building\/[0-9a-f-]{36}$/);

    await page
      .locator('input[type=file]')
      .first()
      .setInputFiles({ name: 'tower-b.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('button', { name: 'Save the image' }).click();
    await seen(page, 'Image replaced');
    // Shown through the authenticated image call, as a blob: URL.
    await expect
      .poll(() => page.getByRole('img', { name: 'Picture of Tower B' }).getAttribute('src'))
      .toMatch(/^blob:/);

    await addFloor(page, 'Level 1');
    await addFloor(page, 'Level 2');

    await page.getByRole('link', { name: 'Add a zone' }).first().click();
    await page.waitForURL(/\/zone\/add$/);
    await fillZone(page, 'Level 2 washrooms', 'Level 2');
    await page.getByRole('button', { name: 'Create the zone' }).click();
    await seen(page, 'Zone created');
    await page.waitForURL(/\/zone\/[0-9a-f-]{36}$/);
    const zoneUrl = new URL(page.url()).pathname;

    await page.goto(`${zoneUrl}/events`);
    await page.getByRole('button', { name: 'FR' }).click();
    await expect
      .poll(() => page.getByRole('listitem').filter({ hasText: 'a créé la zone' }).first().textContent())
      .toMatch(/Claire Customer a créé la zone « Level 2 washrooms »/);
    // The switch saved French to Claire's profile: back to English for the tests that follow.
    await page.getByRole('button', { name: 'Anglais' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'French' }).count()).toBe(1);
    await context.close();
  });

  it('runs the assistant from a new site to a zone with water points, and resumes an unfinished run', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.getByRole('link', { name: 'Set-up assistant' }).first().click();
    await page.waitForURL(/\/assistant/);

    // 1. Site
    await page.getByLabel('Name', { exact: true }).fill('Assistant Campus');
    await page.getByRole('button', { name: 'Create the site and continue' }).click();
    await seen(page, 'Site created');
    await page.waitForURL(/step=building/);

    // 2. Building: the normal building form; a new site has no building to choose, so no "Or".
    await page.getByRole('heading', { name: 'New building' }).waitFor();
    expect(await page.getByText('Or add a new building').count()).toBe(0);
    await fillBuilding(page, 'Assistant Hall');
    await page.getByRole('button', { name: 'Add the building and continue' }).click();
    await seen(page, 'Building added');
    await page.waitForURL(/step=floors/);

    // Leave and come back: the run is offered again where it stopped.
    await page.goto('/');
    await page.goto('/assistant');
    await page.getByRole('button', { name: 'Resume where I left off' }).click();
    await page.waitForURL(/step=floors/);
    await expect.poll(() => page.locator('[aria-current="step"]').textContent()).toContain('Floors');

    // 3. Floors
    await addFloor(page, 'Ground floor');
    await addFloor(page, 'First floor');
    await page.getByRole('button', { name: 'Next step' }).click();
    await page.waitForURL(/step=zone/);

    // 4. Zone
    await fillZone(page, 'Hall washrooms', 'First floor');
    await page.getByRole('button', { name: 'Create the zone and continue' }).click();
    await seen(page, 'Zone created');
    await page.waitForURL(/step=water-points/);

    // 5. Water points, one after the other
    for (const [label, type] of [
      ['Toilet 1', 'toilet'],
      ['Hand basin', 'sink'],
    ]) {
      await page.getByLabel('Label', { exact: true }).fill(label!);
      await page.getByLabel('Type', { exact: true }).selectOption(type!);
      await page.getByRole('button', { name: 'Add the water point' }).click();
      await expect.poll(() => page.getByRole('rowheader', { name: label, exact: true }).count()).toBe(1);
    }
    await page.getByRole('button', { name: 'Finish' }).click();
    await page.waitForURL(/step=done/);
    await seen(page, 'Set-up complete');
    // The end is the zone's checklist, and the way on into what it needs first: its subscription.
    const checklist = page.getByTestId('zone-checklist');
    await checklist.waitFor();
    expect(await checklist.getByTestId('checklist-subscription').getAttribute('data-done')).toBe('false');
    expect(await checklist.getByTestId('checklist-flowbox').getAttribute('data-done')).toBe('false');
    expect(await page.getByText(/is ready for pairing/).count()).toBe(0);

    // Everything was saved as it went: the API sees the whole hierarchy.
    const api = signedIn(DEMO.customer);
    const me = await api<{ customer_id: string }>('GET', '/users/me');
    const zones = await api<{
      items: { name: string; site_name: string; floor_label: string; water_point_count: number }[];
    }>('GET', `/customers/${me.customer_id}/zones/list?search=Hall%20washrooms`);
    expect(zones.items).toMatchObject([
      {
        name: 'Hall washrooms',
        site_name: 'Assistant Campus',
        floor_label: 'First floor',
        water_point_count: 2,
      },
    ]);

    // It continues into the subscription, then pairing.
    await page.getByRole('link', { name: 'Continue: choose its subscription' }).click();
    await page.waitForURL(/\/subscription$/);

    // A finished run is not offered again.
    await page.goto('/assistant');
    await expect.poll(() => page.getByLabel('Name', { exact: true }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Resume where I left off' }).count()).toBe(0);
    await context.close();
  });
});
