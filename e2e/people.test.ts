import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, launchBrowser, newPage, seen, signedIn, signIn } from './browser.ts';
import { customerSite, testZone, type TestZone } from './fixtures.ts';

/*
 * docs/permissions.md "End users and plumbers", in the browser: the demo customer manager invites
 * an end user to a zone, grants it a permission, suspends it, lifts the suspension and removes it;
 * then invites a plumber to a site and removes it.
 */

type Person = { id: string; status: string; permissions: Record<string, string> };

let browser: Browser;
let zone: TestZone;
let customerId: string;
const asCustomer = signedIn(DEMO.customer);

beforeAll(async () => {
  browser = await launchBrowser();
  zone = await testZone('People');
  customerId = (await asCustomer<{ customer_id: string }>('GET', '/users/me')).customer_id;
});
afterAll(async () => {
  await browser.close();
});

async function personByEmail(family: 'end_users' | 'plumbers', email: string): Promise<Person | undefined> {
  const list = await asCustomer<{ items: (Person & { email: string })[] }>(
    'GET',
    `/customers/${customerId}/${family}/list?search=${encodeURIComponent(email)}`,
  );
  return list.items.find((p) => p.email === email);
}

async function invite(page: Page, firstname: string, lastname: string, email: string, place: RegExp) {
  await page.getByLabel('First name').fill(firstname);
  await page.getByLabel('Last name').fill(lastname);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('checkbox', { name: place }).check();
  await page.getByRole('button', { name: 'Create and invite' }).click();
}

async function remove(page: Page, name: string) {
  await page.getByRole('button', { name: `Delete ${name}` }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name to confirm').fill(name);
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect.poll(() => page.getByRole('rowheader', { name }).count(), { timeout: 20_000 }).toBe(0);
}

describe('a customer manager manages the people of its zones and sites', () => {
  it('invites an end user, grants a permission, suspends, lifts and removes it', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'People' })
      .first()
      .click();
    await page.getByRole('heading', { name: 'End users', level: 1 }).waitFor();

    await page.getByRole('link', { name: 'Invite an end user' }).click();
    const stamp = Date.now();
    const email = `end.user.${stamp}@example.test`;
    const name = `Ella Enduser${stamp}`;
    await invite(page, 'Ella', `Enduser${stamp}`, email, new RegExp(`^${zone.name}`));
    await page.waitForURL((url) => url.pathname === `/customers/${customerId}/end-users`);
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name }) });
    await row.waitFor();
    await seen(page, zone.name);
    const created = (await personByEmail('end_users', email))!;
    expect(created.permissions['valves.control']).toBe('denied');

    // The permission screen offers only what an end user can hold.
    await page.getByRole('link', { name: `Permissions ${name}` }).click();
    await page.locator('input[name="valves.control"][value="authorised"]').waitFor();
    expect(await page.locator('input[type="radio"]').count()).toBe(6);
    expect(await page.locator('input[name="sites.manage"]').count()).toBe(0);
    await page.locator('input[name="valves.control"][value="authorised"]').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await seen(page, 'Permissions have been updated');
    const granted = (await personByEmail('end_users', email))!;
    expect(granted.permissions['valves.control']).toBe('authorised');

    // Suspended: it cannot sign in; the list and the API say so.
    await page.getByRole('button', { name: `Suspend ${name}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Suspend' }).click();
    await expect.poll(() => row.getByText('Suspended').count(), { timeout: 20_000 }).toBe(1);
    expect((await personByEmail('end_users', email))!.status).toBe('suspended');

    await page.getByRole('button', { name: `Lift the suspension of ${name}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Lift the suspension' }).click();
    await expect.poll(() => row.getByText('Suspended').count(), { timeout: 20_000 }).toBe(0);
    expect((await personByEmail('end_users', email))!.status).not.toBe('suspended');

    await remove(page, name);
    expect(await personByEmail('end_users', email)).toBeUndefined();
    await context.close();
  });

  it('invites a plumber to a site and removes it', async () => {
    const site = await customerSite(asCustomer);
    const sites = await asCustomer<{ items: { id: string; name: string }[] }>(
      'GET',
      `/customers/${customerId}/sites/list`,
    );
    const siteName = sites.items.find((s) => site.endsWith(s.id))!.name;
    const { context, page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto(`/customers/${customerId}/end-users`);
    await page.getByRole('link', { name: 'Plumber accounts' }).click();
    await page.getByRole('heading', { name: 'Plumber accounts', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Invite a plumber' }).click();
    const stamp = Date.now();
    const email = `plumber.${stamp}@example.test`;
    const name = `Paul Plumber${stamp}`;
    await invite(page, 'Paul', `Plumber${stamp}`, email, new RegExp(`^${siteName}$`));
    await page.waitForURL((url) => url.pathname === `/customers/${customerId}/plumber-users`);
    await page.getByRole('rowheader', { name }).waitFor();
    expect((await personByEmail('plumbers', email))!.status).toBe('invited');

    await page.getByRole('link', { name: `Permissions ${name}` }).click();
    await page.locator('input[name="flowboxes.pair"]').first().waitFor();
    expect(await page.locator('input[type="radio"]').count()).toBe(4);
    await page.getByRole('link', { name: 'Cancel' }).click();

    await remove(page, name);
    expect(await personByEmail('plumbers', email)).toBeUndefined();
    await context.close();
  });

  it('names the list in French', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto(`/customers/${customerId}/end-users`);
    await page.getByRole('heading', { name: 'End users', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'French' }).click();
    await page.getByRole('heading', { name: 'Utilisateurs finaux', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Comptes plombiers' }).waitFor();
    // Back to English, the demo manager's language for the other files.
    await page.getByRole('button', { name: 'Anglais' }).click();
    await page.getByRole('heading', { name: 'End users', level: 1 }).waitFor();
    await context.close();
  });
});
