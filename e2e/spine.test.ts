import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, launchBrowser, newPage, seen, signedIn, signIn, submitLogin } from './browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

describe('signing in', () => {
  it('sends a visitor to the login page, then back to where they were going', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/customers');
    await page.waitForURL(/\/login\?redirect=%2Fcustomers$/);
    await submitLogin(page, DEMO.provider);
    await page.waitForURL(/\/customers$/);
    await expect.poll(() => page.getByRole('link', { name: 'Acme Water Services' }).count()).toBe(1);
    const cookies = await context.cookies();
    const access = cookies.find((c) => c.name === 'access_token');
    expect(access?.sameSite).toBe('Strict');
    expect(cookies.find((c) => c.name === 'refresh_token')?.path).toBe('/');
    await context.close();
  });

  it('says why a wrong password is refused', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    await submitLogin(page, DEMO.provider, 'not-the-password-1');
    await expect
      .poll(() => page.getByText('Unable to authenticate you, verify your email and password').count())
      .toBe(1);
    await expect.poll(() => page.getByText('Error!').count()).toBeGreaterThan(0);
    expect(page.url()).toMatch(/\/login/);
    await context.close();
  });

  it('shows "Page not found" for an unknown path', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/no/such/page');
    await expect.poll(() => page.getByRole('heading', { name: 'Page not found' }).count()).toBe(1);
    await context.close();
  });
});

describe('a provider manager onboards a customer', () => {
  it('creates a customer and its manager, who sets a password from the emailed link and signs in', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, DEMO.provider);
    await page.goto('/customers/add');
    await page.getByLabel('Name', { exact: true }).fill('Harbour Utilities');
    await page.getByRole('button', { name: 'Create the customer' }).click();
    await expect.poll(() => page.getByText('Customer created').count()).toBeGreaterThan(0);
    await page.waitForURL(/\/customers\/[0-9a-f-]{36}$/);
    const customerId = new URL(page.url()).pathname.split('/')[2]!;

    await page.goto(`/customers/${customerId}/customer-managers/add`);
    await page.getByLabel('First name').fill('Hana');
    await page.getByLabel('Last name').fill('Harbour');
    await page.getByLabel('Email').fill('hana@harbour.example');
    await page.getByRole('button', { name: 'Create and invite' }).click();
    await expect
      .poll(() => page.getByText('User created: an invitation email has been sent').count())
      .toBeGreaterThan(0);
    await context.close();

    // The invitation, as the outbox holds it in the embedded set-up.
    const outbox = await signedIn(DEMO.provider)<{ items: { to: string; text: string }[] }>('GET', '/outbox');
    const mail = outbox.items.find((m) => m.to === 'hana@harbour.example');
    const link = mail?.text.match(/https?:\/\/\S+\/set-password\?token=\S+/)?.[0];
    expect(link).toBeDefined();

    const invited = await newPage(browser);
    await invited.page.goto(link!);
    await invited.page.getByLabel('New password').fill('harbour-pass-1');
    await invited.page.getByLabel('Password confirmation').fill('harbour-pass-1');
    await invited.page.getByRole('button', { name: 'Save my password' }).click();
    // Saving the password signs the new manager in: no second form, no email typed again.
    await invited.page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => invited.page.getByTestId('current-user').textContent()).toContain('Hana Harbour');
    await seen(invited.page, 'Your password has been saved.');
    // The link is used up: opened again, it sets nothing.
    const again = await newPage(browser);
    await again.page.goto(link!);
    await again.page.getByLabel('New password').fill('someone-else-1');
    await again.page.getByLabel('Password confirmation').fill('someone-else-1');
    await again.page.getByRole('button', { name: 'Save my password' }).click();
    await seen(again.page, 'This link no longer works');
    expect(new URL(again.page.url()).pathname).toBe('/set-password');
    await again.context.close();

    // The customers list is the provider's: a customer manager is sent to the root (spec §2).
    await invited.page.goto('/customers');
    await invited.page.waitForURL((url) => url.pathname === '/');
    await invited.context.close();
  });

  it('deletes a customer only when its name is typed', async () => {
    const api = signedIn(DEMO.provider);
    const customer = await api<{ id: string }>('POST', '/customers/create', { name: 'Short Lived' });
    const { context, page } = await newPage(browser);
    await signIn(page, DEMO.provider);
    await page.goto(`/customers/${customer.id}`);
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByText('Warning!').count()).toBeGreaterThan(0);
    await dialog.getByLabel('Name to confirm').fill('Short');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => dialog.getByText("Both names don't match").count()).toBeGreaterThan(0);
    await dialog.getByLabel('Name to confirm').fill('Short Lived');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(/\/customers$/);
    const list = await api<{ items: { name: string }[] }>('GET', '/customers/list');
    expect(list.items.map((c) => c.name)).not.toContain('Short Lived');
    await context.close();
  });
});

describe('languages', () => {
  it('switches the whole interface to French, and the server answers in French too', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.getByRole('button', { name: 'French' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Tableau de bord' }).count()).toBe(1);
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
    await page.getByRole('link', { name: 'Mon profil' }).first().click();
    await expect.poll(() => page.getByText('Français').count()).toBeGreaterThan(0);
    await page.goto('/profile/update-password');
    await page.getByLabel('Mot de passe actuel').fill('not-my-password-1');
    await page.getByLabel('Nouveau mot de passe').fill('another-pass-1');
    await page.getByLabel('Confirmation du mot de passe').fill('another-pass-2');
    await page.getByRole('button', { name: /Enregistrer|Changer/ }).click();
    await expect
      .poll(() => page.getByText('Les mots de passe doivent correspondre').count())
      .toBeGreaterThan(0);
    await page.getByLabel('Confirmation du mot de passe').fill('another-pass-1');
    await page.getByRole('button', { name: /Enregistrer|Changer/ }).click();
    await expect
      .poll(() => page.getByText("Votre mot de passe actuel n'est pas correct").count())
      .toBeGreaterThan(0);
    // Back to English for the other tests' sake: the language is saved on the profile.
    await page.getByRole('button', { name: 'Anglais' }).click();
    await expect.poll(() => page.getByText('Current password').count()).toBeGreaterThan(0);
    await context.close();
  });
});

describe('sessions', () => {
  it('refreshes an expired session silently, and logs out for good', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, DEMO.site);
    const before = (await context.cookies()).find((c) => c.name === 'access_token')?.value;
    // The e2e server issues access tokens for 5 seconds; let this one expire.
    await page.waitForTimeout(6000);
    // Reloading fetches the current user with the expired token: 401, one refresh, then the page.
    await page.goto('/profile');
    await expect.poll(() => page.getByText('site@demo.flowbox.local').count()).toBeGreaterThan(0);
    expect(new URL(page.url()).pathname).toBe('/profile');
    const after = (await context.cookies()).find((c) => c.name === 'access_token')?.value;
    expect(after).toBeDefined();
    expect(after).not.toBe(before);

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/login/);
    expect((await context.cookies()).filter((c) => c.name.endsWith('_token'))).toHaveLength(0);
    await page.goto('/profile');
    await page.waitForURL(/\/login\?redirect=%2Fprofile/);
    await context.close();
  });
});

describe('on a phone', () => {
  it('collapses the navigation into a menu', async () => {
    const { context: phone, page } = await newPage(browser);
    await page.setViewportSize({ width: 390, height: 800 });
    await signIn(page, DEMO.provider);
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Customers', exact: true }).first().click();
    await page.waitForURL(/\/customers$/);
    await phone.close();
  });
});

describe('language at sign-in', () => {
  it("signs in in the user's own language when none was chosen on the browser", async () => {
    const { context, page } = await newPage(browser, { locale: 'fr-FR' });
    await page.goto('/login');
    await expect.poll(() => page.getByRole('heading', { name: 'Connexion' }).count()).toBe(1);
    await page.getByLabel('Email').fill(DEMO.provider);
    await page.getByLabel('Mot de passe', { exact: true }).fill(DEMO.password);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Dashboard' }).count()).toBe(1);
    await context.close();
  });

  it('keeps the language chosen on the sign-in page, even when it was already the browser’s', async () => {
    const { context, page } = await newPage(browser, { locale: 'fr-FR' });
    await page.goto('/login');
    const french = page.getByRole('button', { name: 'Français, FR' });
    await expect.poll(() => french.getAttribute('aria-pressed')).toBe('true');
    // Pressed already, by the browser's guess: clicking it still says "French, whatever my profile says".
    await french.click();
    await page.getByLabel('Email').fill(DEMO.provider);
    await page.getByLabel('Mot de passe', { exact: true }).fill(DEMO.password);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => page.getByRole('heading', { name: 'Tableau de bord' }).count()).toBe(1);
    await context.close();
  });
});

describe('activity log', () => {
  it("shows a customer's changes newest first, readable in French, and filters them", async () => {
    const api = signedIn(DEMO.customer);
    const me = await api<{ customer_id: string }>('GET', '/users/me');
    await api('POST', `/customers/${me.customer_id}/sites/create`, { name: 'Journal Site' });
    const { context, page } = await newPage(browser, { locale: 'fr-FR' });
    await page.goto('/login');
    // Chosen on this browser, French wins over the English of the user's profile.
    await page.getByRole('button', { name: 'Français' }).click();
    await page.getByLabel('Email').fill(DEMO.customer);
    await page.getByLabel('Mot de passe', { exact: true }).fill(DEMO.password);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto(`/customers/${me.customer_id}/events`);
    const first = page.getByRole('listitem').filter({ hasText: 'Journal Site' }).first();
    await expect.poll(() => first.textContent()).toMatch(/Claire Customer a créé le site « Journal Site »/);
    // A filter nothing matches, whatever the other tests of the run deleted for this customer.
    await page.goto(`/customers/${me.customer_id}/events?action_name=deleted&from=2001-01-01&to=2001-01-31`);
    await expect.poll(() => page.getByText('Aucun événement ne correspond à ces filtres.').count()).toBe(1);
    await context.close();
  });
});
