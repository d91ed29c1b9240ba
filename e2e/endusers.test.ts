import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, launchBrowser, newPage, seen, signedIn, signIn } from './browser.ts';
import { testZone, type TestZone } from './fixtures.ts';

/*
 * docs/permissions.md "Registration", end to end: a zone's manager issues a claim code, a resident
 * registers with it, confirms by the emailed link, the manager approves, and the new end user sees
 * its zone and nothing of the zone next door. A wrong code gets the very same answer.
 */

let browser: Browser;
let zone: TestZone;
let neighbour: TestZone;
beforeAll(async () => {
  browser = await launchBrowser();
  [zone, neighbour] = await Promise.all([testZone('Registration'), testZone('Next door')]);
});
afterAll(async () => {
  await browser.close();
});

async function registerWith(code: string, email: string): Promise<string> {
  const { context, page } = await newPage(browser);
  await page.goto('/register');
  await page.getByLabel('First name').fill('Rita');
  await page.getByLabel('Last name').fill('Resident');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('resident-pass-1');
  await page.getByLabel('Password confirmation').fill('resident-pass-1');
  await page.getByLabel('Claim code').fill(code);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create my account' }).click();
  await page.getByRole('heading', { name: 'Registration recorded' }).waitFor();
  const answer = (await page.getByRole('status').last().textContent()) ?? '';
  await context.close();
  return answer;
}

describe('an end user registers with a claim code', () => {
  it('confirms by the emailed link, is approved, and sees only its zone', async () => {
    const me = await signedIn(DEMO.customer)<{ customer_id: string }>('GET', '/users/me');
    const manager = await newPage(browser);
    await signIn(manager.page, DEMO.customer);
    await manager.page.goto(`/customers/${me.customer_id}/registrations`);
    const option = manager.page.locator('option', { hasText: zone.name });
    await option.waitFor({ state: 'attached' });
    await manager.page.getByLabel('Zone').selectOption((await option.getAttribute('value'))!);
    await manager.page.getByRole('button', { name: 'Issue the code' }).click();
    const code = (await manager.page.getByTestId('claim-code').textContent())!.trim();
    expect(code).toMatch(/^\w{4}-\w{4}-\w{4}$/);

    const email = `resident.${Date.now()}@example.test`;
    const right = await registerWith(code, email);
    const wrong = await registerWith('ZZZZ-ZZZZ-ZZZZ', `stranger.${Date.now()}@example.test`);
    expect(wrong).toBe(right);

    const outbox = await signedIn(DEMO.provider)<{ items: { to: string; text: string }[] }>('GET', '/outbox');
    const link = outbox.items
      .find((m) => m.to === email)
      ?.text.match(/https?:\/\/\S+\/register\/confirm\?token=\S+/)?.[0];
    expect(link).toBeDefined();
    expect(outbox.items.filter((m) => m.to.startsWith('stranger.'))).toEqual([]);
    const resident = await newPage(browser);
    await resident.page.goto(new URL(link!).pathname + new URL(link!).search);
    await seen(resident.page, 'Your address is confirmed');

    await manager.page.reload();
    await manager.page.getByRole('button', { name: `Approve ${email}` }).click();
    await seen(manager.page, 'Registration approved');
    await manager.context.close();

    await signIn(resident.page, email, 'resident-pass-1');
    const own = resident.page.getByTestId('own-zones');
    await expect.poll(() => own.getByText(zone.name).count()).toBe(1);
    expect(await own.getByText(neighbour.name).count()).toBe(0);
    await resident.context.close();
  });
});
