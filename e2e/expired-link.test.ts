import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage } from './browser.ts';

/*
 * Issue 30 item 18: an expired password-reset link said "Le token est invalide", with no way to ask
 * again. It says the link no longer works and leads to a new one, in English and French.
 */

const SHOTS = process.env.E2E_SCREENSHOTS;
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

describe('an expired link', () => {
  it('says it no longer works and leads to a new one', async () => {
    const { context, page } = await newPage(browser, { locale: 'fr-FR' });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/reset-password?token=expired-or-used-long-ago');
    await page.getByLabel('Nouveau mot de passe', { exact: true }).fill('a-new-password-1');
    await page.getByLabel(/Confirm/).fill('a-new-password-1');
    await page.getByRole('button', { name: 'Enregistrer le nouveau mot de passe' }).click();
    const expired = page.getByTestId('link-expired');
    await expired.waitFor();
    expect(await expired.textContent()).toMatch(/Ce lien ne fonctionne plus/);
    expect(await page.getByText(/token/i).count()).toBe(0);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/expired-link-390-fr.png`, fullPage: true });
    await page.getByRole('link', { name: 'Demander un nouveau lien' }).click();
    await page.waitForURL((url) => url.pathname === '/reset-password-request');
    // Without a token at all, in English.
    await page.getByRole('button', { name: /^(English|Anglais), EN$/ }).click();
    await page.goto('/reset-password');
    await page.getByTestId('link-expired').getByText('This link no longer works').waitFor();
    await page.getByRole('link', { name: 'Ask for a new link' }).waitFor();
    await context.close();
  });
});
