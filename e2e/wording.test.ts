import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, launchBrowser, newPage, signedIn, signIn } from './browser.ts';
import { invitedResident, testZone, type TestZone } from './fixtures.ts';

/*
 * Issue 30 item 18, the screens' part: "Please select an option" was a value of the alerts' State
 * filter ("No alert matches"), and a resident was told to switch on a zone setting it cannot open.
 * The catalogue's wording faults have their own test (packages/web/src/lib/i18n/wording.test.ts).
 */

const PASSWORD = 'wording-pass-1';
const SHOTS = process.env.E2E_SCREENSHOTS;

let browser: Browser;
let zone: TestZone;
let resident: { email: string };

beforeAll(async () => {
  browser = await launchBrowser();
  zone = await testZone('Wording');
  const invited = await invitedResident([zone.api.split('/').pop()!], { language: 'en', password: PASSWORD });
  resident = invited;
  await signedIn(DEMO.customer)('PUT', `/customers/${invited.customerId}/end_users/${invited.id}/update`, {
    permissions: { 'schedules.manage': 'authorised' },
  });
  await signedIn(DEMO.customer)('PUT', `${zone.api}/update`, { scheduled_closing_authorised: false });
});
afterAll(async () => {
  await browser.close();
});

describe('small texts', () => {
  it('offers no “Please select an option” among a filter’s values', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto('/notifications');
    const state = page.getByLabel('State', { exact: true });
    await state.waitFor();
    const choices = await state.locator('option:not([disabled])').allTextContents();
    expect(choices.length).toBeGreaterThan(0);
    expect(choices).not.toContain('Please select an option');
    await context.close();
  });

  it('tells a resident whom to ask for scheduled closings, not a setting it cannot open', async () => {
    const { context, page } = await newPage(browser);
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, resident.email, PASSWORD);
    await page.goto(`/my/zones/${zone.api.split('/').pop()}`);
    const note = page.getByRole('note');
    await expect.poll(async () => (await note.allTextContents()).join(' ')).toMatch(/Ask the zone’s manager/);
    expect((await note.allTextContents()).join(' ')).not.toMatch(/zone’s settings/);
    if (SHOTS) await note.screenshot({ path: `${SHOTS}/wording-schedules-390-en.png` });
    await page.getByRole('button', { name: /^(Français|French), FR$/ }).click();
    await expect
      .poll(async () => (await note.allTextContents()).join(' '))
      .toMatch(/Demandez au gestionnaire de la zone/);
    if (SHOTS) await note.screenshot({ path: `${SHOTS}/wording-schedules-390-fr.png` });
    await page.getByRole('button', { name: /^(English|Anglais), EN$/ }).click();
    await context.close();
  });

  it('shows the outbox’s subjects on a phone', async () => {
    const { context, page } = await newPage(browser);
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, DEMO.provider);
    await page.goto('/outbox');
    const subject = (await signedIn(DEMO.provider)<{ items: { subject: string }[] }>('GET', '/outbox'))
      .items[0]!.subject;
    const shown = page.getByText(subject, { exact: true }).filter({ visible: true }).first();
    await shown.waitFor();
    const box = (await shown.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await shown.isVisible()).toBe(true);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/outbox-390-en.png` });
    await context.close();
  });
});
