import type { SimulatedFlowbox } from '@flowbox/simulator';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { DEMO, launchBrowser, newPage, newVisitorAddress, seen, signedIn, signIn } from './browser.ts';
import {
  pairSimulatedDevice,
  subscribedZone,
  testZone,
  type SubscribedZone,
  type TestZone,
} from './fixtures.ts';

/*
 * docs/permissions.md "Registration", end to end: a zone's manager issues a claim code, a resident
 * registers with it, confirms by the emailed link (choosing its password there), the manager
 * approves, and the new end user sees
 * its zone and nothing of the zone next door. A wrong code, or a serial that is not the code's zone's,
 * gets the very same answer, whether the serial exists or not.
 */

/** The flowbox of the zone the codes are for: the serial printed on it. */
const SERIAL = 'FB-E2E-REG0001';
const FACTORY_SECRET = 'E2E_registration_secret_'.padEnd(43, 'r');

let browser: Browser;
let zone: SubscribedZone;
let neighbour: TestZone;
let device: SimulatedFlowbox | undefined;
beforeAll(async () => {
  browser = await launchBrowser();
  [zone, neighbour] = await Promise.all([subscribedZone('Registration'), testZone('Next door')]);
  device = (await pairSimulatedDevice(zone, { serial: SERIAL, factorySecret: FACTORY_SECRET, seed: 18 }))
    .simulated;
});
afterAll(async () => {
  await device?.stop();
  await browser.close();
});

async function registerWith(code: string, email: string, serial = ''): Promise<string> {
  const { context, page } = await newPage(browser, { clientAddress: newVisitorAddress() });
  await page.goto('/register');
  await page.getByLabel('First name').fill('Rita');
  await page.getByLabel('Last name').fill('Resident');
  await page.getByLabel('Email').fill(email);
  // No password on the form: the one who opens the emailed link chooses it.
  expect(await page.getByLabel('Password', { exact: true }).count()).toBe(0);
  await page.getByLabel('Claim code').fill(code);
  await page.getByLabel('Flowbox serial number').fill(serial);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create my account' }).click();
  await page.getByRole('heading', { name: 'Registration recorded' }).waitFor();
  // The page's answer, not the toast beside it (both are status messages).
  const answer =
    (await page.getByRole('status').and(page.locator(':not([data-testid="toast"])')).textContent()) ?? '';
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

    const stamp = Date.now();
    const email = `resident.${stamp}@example.test`;
    const right = await registerWith(code, email, SERIAL);
    // The page asks for the emailed link to be opened: until then no manager sees the request.
    expect(right).toContain('Open it within 48 hours to confirm your address');
    expect(right).toContain('the manager of your building sees your request only once it is confirmed');
    // Nothing on screen tells a wrong code from a right one, nor a serial that exists from one that does not.
    const answers = [
      await registerWith('ZZZZ-ZZZZ-ZZZZ', `stranger.real-serial.${stamp}@example.test`, SERIAL),
      await registerWith('ZZZZ-ZZZZ-ZZZZ', `stranger.no-serial.${stamp}@example.test`, 'FB-NOBODY-0000'),
      await registerWith(code, `stranger.right-code.${stamp}@example.test`, 'FB-NOBODY-0000'),
    ];
    expect(answers).toEqual([right, right, right]);

    const outbox = await signedIn(DEMO.provider)<{ items: { to: string; text: string }[] }>('GET', '/outbox');
    const link = outbox.items
      .find((m) => m.to === email)
      ?.text.match(/https?:\/\/\S+\/register\/confirm\?token=\S+/)?.[0];
    expect(link).toBeDefined();
    expect(outbox.items.filter((m) => m.to.startsWith('stranger.'))).toEqual([]);

    // The email carries none of the form's words: no name to greet, only the product's text.
    const mail = outbox.items.find((m) => m.to === email)!;
    expect(mail.text).not.toContain('Rita');

    // The resident reads French: the confirmation page speaks it, and the server's answer too.
    // Opening the link confirms nothing yet: its opener chooses the account's password first.
    const resident = await newPage(browser, { locale: 'fr-FR' });
    const confirmPath = new URL(link!).pathname + new URL(link!).search;
    await resident.page.goto(confirmPath);
    await resident.page.getByRole('heading', { name: 'Confirmation de votre adresse', level: 1 }).waitFor();
    await expectAccessible(resident.page, 'the registration link asking for a password, in French');
    const confirmWith = async (password: string, again: string) => {
      await resident.page.getByLabel('Mot de passe', { exact: true }).fill(password);
      await resident.page.getByLabel('Confirmation du mot de passe').fill(again);
      await resident.page.getByRole('button', { name: 'Confirmer mon adresse' }).click();
    };
    await confirmWith('resident-pass-1', 'resident-pass-2');
    await seen(resident.page, 'Les mots de passe doivent correspondre');
    await confirmWith('resident-pass-1', 'resident-pass-1');
    await seen(resident.page, 'Votre adresse est confirmée');
    await resident.page.getByRole('link', { name: 'Retour à la connexion' }).waitFor();
    await expectAccessible(resident.page, 'the registration confirmed, in French');
    await resident.page.setViewportSize({ width: 390, height: 844 });
    await resident.page.screenshot({ path: '/tmp/register-confirm-390-fr.png', fullPage: true });
    // The link works once: opened again, it is refused, in French.
    await resident.page.goto(confirmPath);
    await confirmWith('someone-else-1', 'someone-else-1');
    await resident.page.getByRole('alert').filter({ hasText: 'Ce lien ne fonctionne plus' }).waitFor();
    await resident.page.getByRole('link', { name: 'M’inscrire de nouveau' }).waitFor();
    await expectAccessible(resident.page, 'the registration link refused, in French');
    await resident.page.screenshot({ path: '/tmp/register-confirm-refused-390-fr.png', fullPage: true });
    await resident.context.close();

    await manager.page.reload();
    await manager.page.getByRole('button', { name: `Approve ${email}` }).click();
    await seen(manager.page, 'Registration approved');
    await manager.context.close();

    const signedInResident = await newPage(browser);
    await signIn(signedInResident.page, email, 'resident-pass-1');
    const own = signedInResident.page.getByTestId('own-zones');
    await expect.poll(() => own.getByText(zone.name).count()).toBe(1);
    expect(await own.getByText(neighbour.name).count()).toBe(0);
    await signedInResident.context.close();
  });

  it('lists the zone’s claim codes without the code itself, and revokes one, in French', async () => {
    const me = await signedIn(DEMO.customer)<{ customer_id: string }>('GET', '/users/me');
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, DEMO.customer);
      await page.getByRole('button', { name: /^(Français|French), FR$/ }).click();
      await page.goto(`/customers/${me.customer_id}/registrations`);
      const option = page.locator('option', { hasText: neighbour.name });
      await option.waitFor({ state: 'attached' });
      await page.getByLabel('Zone').selectOption((await option.getAttribute('value'))!);
      await page.getByRole('button', { name: 'Émettre le code' }).click();
      const code = (await page.getByTestId('claim-code').textContent())!.trim();
      const hint = code.slice(-4);
      const codes = page.getByRole('table', { name: 'Codes d’activation de cette zone' });
      const row = codes.getByRole('row').filter({ hasText: `finissant par ${hint}` });
      await row.waitFor();
      expect(await codes.textContent()).not.toContain(code);
      await expect.poll(() => row.textContent()).toContain('Actif');
      await expectAccessible(page, 'the registrations page with its claim codes, in French');

      await row.getByRole('button', { name: `Révoquer le code finissant par ${hint}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Révoquer ce code d’activation ?' });
      await dialog.getByRole('button', { name: 'Révoquer' }).click();
      await seen(page, 'Le code d’activation est révoqué');
      await expect.poll(() => row.textContent()).toContain('Révoqué');
      expect(await row.getByRole('button').count()).toBe(0);

      await page.getByRole('button', { name: /^(English|Anglais), EN$/ }).click();
    } finally {
      await context.close();
    }
  });
});
