import { randomBytes } from 'node:crypto';
import type { SimulatedFlowbox } from '@flowbox/simulator';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { baseUrl, DEMO, launchBrowser, newPage, seen, signedIn, signIn } from './browser.ts';
import { pairSimulatedDevice, subscribedZone, type SubscribedZone } from './fixtures.ts';

/*
 * Firmware updates in the browser (issue 17), in French: a provider manager uploads an image in the
 * catalogue (and a misnamed one, refused), rolls it out to a zone of simulated flowboxes that
 * download it from the real server, watches the rollout reach 100 % live, and finds the new
 * version on a flowbox's page. Then, the building open, a flowbox's own update is held back until
 * the user asks for it even during opening hours.
 */

const VERSION = '3.7.1';
const GOOD_NAME = `flowbox-one_inch_v1-${VERSION}.bin`;
/** A factory secret as printed on a label (43 base64url characters, docs/protocol.md). */
const secret = (n: number) => `E2E_firmware_secret_${n}`.padEnd(43, 'f');

let browser: Browser;
let zone: SubscribedZone;
const devices: { simulated: SimulatedFlowbox; flowboxId: string }[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  zone = await subscribedZone('Firmware');
  for (const n of [1, 2]) {
    const paired = await pairSimulatedDevice(zone, {
      serial: `FB-E2E-FW000${n}`,
      factorySecret: secret(n),
      seed: 40 + n,
      versions: { esp: '5.1.2', board: 'B3', firmware: '2.4.0' },
      rebootDelayMs: 200,
      firmwareRetryDelayMs: 200,
    });
    await paired.simulated.start();
    devices.push(paired);
  }
  // The rollout starts only connected flowboxes (docs/firmware.md "skipped: offline").
  const asCustomer = signedIn(DEMO.customer);
  await vi.waitFor(
    async () => {
      for (const d of devices) {
        const info = await asCustomer<{ connection: string }>(
          'GET',
          `${zone.api}/flowboxes/${d.flowboxId}/info`,
        );
        if (info.connection !== 'connected') throw new Error(`${d.flowboxId} not connected yet`);
      }
    },
    { timeout: 20_000, interval: 250 },
  );
});
afterAll(async () => {
  for (const device of devices) await device.simulated.stop();
  await browser?.close();
});

/** Drops a file on the catalogue's drop zone, as a file manager would. */
async function dropFile(page: Page, name: string, bytes: Buffer): Promise<void> {
  const dataTransfer = await page.evaluateHandle(
    ({ name, data }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(data)], name, { type: 'application/octet-stream' }));
      return transfer;
    },
    { name, data: [...bytes] },
  );
  await page.getByTestId('firmware-drop-zone').dispatchEvent('drop', { dataTransfer });
}

/** Uploads an image through the API, as the catalogue's form sends it (the fields, then the file). */
async function uploadImage(version: string): Promise<void> {
  const { access_token } = (await (
    await fetch(`${baseUrl()}/v1/users/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: DEMO.provider, password: DEMO.password }),
    })
  ).json()) as { access_token: string };
  const form = new FormData();
  form.append('version', version);
  form.append('models', 'one_inch_v1');
  form.append('released_to', 'all');
  form.append('file', new Blob([randomBytes(8192)]), `flowbox-one_inch_v1-${version}.bin`);
  const answer = await fetch(`${baseUrl()}/v1/firmware/images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${access_token}` },
    body: form,
  });
  if (answer.status !== 201) throw new Error(`upload ${version}: ${answer.status} ${await answer.text()}`);
}

/** The ids in a zone's API path (/customers/…/sites/…/buildings/…/zones/…). */
function placeOf(api: string) {
  const [, customer, site, building, zoneId] =
    /\/customers\/([^/]+)\/sites\/([^/]+)\/buildings\/([^/]+)\/zones\/([^/]+)$/.exec(api) ?? [];
  return { customer: customer!, site: site!, building: building!, zone: zoneId! };
}

describe('firmware in the browser', () => {
  it('uploads an image, refuses a misnamed one, rolls it out to a zone of simulated flowboxes live to 100 %, and shows the new version (French)', async () => {
    const { page } = await newPage(browser);
    await signIn(page, DEMO.provider);
    try {
      await page.goto('/firmware');
      await page.getByRole('heading', { name: 'Firmware', exact: true }).waitFor();
      await page.getByRole('button', { name: 'French' }).click();

      // A misnamed file, dropped: the name does not say the version typed; nothing is sent.
      await page.getByRole('button', { name: 'Téléverser une image' }).click();
      await dropFile(page, GOOD_NAME, randomBytes(4096));
      const version = page.getByLabel('Version', { exact: true });
      await expect.poll(() => version.inputValue()).toBe(VERSION);
      await version.fill('3.7.2');
      await page.getByRole('button', { name: 'Téléverser', exact: true }).click();
      await seen(page, 'Nommage du firmware incorrect', 5_000);
      await seen(page, 'flowbox-one_inch_v1-3.7.2.bin', 5_000);

      // The server says the same of a file whose name gives no version at all.
      await page.locator('input[type="file"]').setInputFiles({
        name: 'firmware-latest.bin',
        mimeType: 'application/octet-stream',
        buffer: randomBytes(4096),
      });
      await version.fill('3.7.3');
      await page.getByRole('button', { name: 'Téléverser', exact: true }).click();
      await seen(page, 'Nommage du firmware incorrect', 5_000);

      // The right file, chosen with the button: its name fills the version and the model.
      await page.locator('input[type="file"]').setInputFiles({
        name: GOOD_NAME,
        mimeType: 'application/octet-stream',
        buffer: randomBytes(8192),
      });
      await expect.poll(() => version.inputValue()).toBe(VERSION);
      await page.getByLabel('Notes de version (anglais)').fill('Quieter valve motor');
      await page.getByLabel('Notes de version (français)').fill('Moteur de vanne plus silencieux');
      await page.getByRole('button', { name: 'Téléverser', exact: true }).click();
      // The card closes and the catalogue lists the image (the toast may be gone by the time we look).
      const catalogue = page.getByRole('table');
      await expect
        .poll(() => catalogue.getByRole('row', { name: new RegExp(VERSION) }).count(), { timeout: 20_000 })
        .toBe(1);
      await expect.poll(() => catalogue.getByRole('row', { name: /3\.7\.[23]/ }).count()).toBe(0);

      // Rolled out to the zone, in one wave, without start delay.
      await page.getByRole('link', { name: `Déployer la version ${VERSION}` }).click();
      await page.getByRole('heading', { name: `Déployer ${VERSION}` }).waitFor();
      const place = placeOf(zone.api);
      await page.getByLabel('Client', { exact: true }).selectOption(place.customer);
      await page.getByLabel('Site', { exact: true }).selectOption(place.site);
      await page.getByLabel('Bâtiment', { exact: true }).selectOption(place.building);
      await page.getByLabel('Zone', { exact: true }).selectOption(place.zone);
      for (const wave of [4, 3, 2])
        await page.getByRole('button', { name: `Supprimer la vague ${wave}` }).click();
      await page.getByLabel('Vague 1').fill('100');
      await page.getByLabel('Délai de départ (secondes)').fill('0');
      await page.getByLabel('Mettre à jour aussi pendant les heures d’ouverture des bâtiments').check();
      await page.getByRole('button', { name: 'Lancer le déploiement' }).click();
      await page.waitForURL(/\/firmware\/rollouts\/[0-9a-f-]{36}$/);
      await page.getByRole('heading', { name: `Déploiement de ${VERSION}` }).waitFor();

      const rolloutId = new URL(page.url()).pathname.split('/').at(-1)!;
      // The list of rollouts, in a second tab, follows the same pushes.
      const list = await page.context().newPage();
      await list.goto('/firmware/rollouts');
      const listed = list.getByRole('row', {
        name: new RegExp(`Déploiement de ${VERSION.replaceAll('.', '\\.')}`),
      });
      // A minute: in the suite's second group this wait ran out at 30 s twice on 2026-12-07 (alone it
      // takes a moment); to be understood (docs/decisions.md "CI's time budget").
      await listed.waitFor({ timeout: 60_000 });

      // The devices download the image from the server and install it; the page follows.
      await expect.poll(() => page.getByTestId('count-success').textContent(), { timeout: 45_000 }).toBe('2');
      await expect
        .poll(() => page.getByTestId('rollout-summary').textContent())
        .toMatch(/^100\s?% terminé : 2 mis à jour, 0 en échec, sur 2 flowbox\.$/);
      // Live, not polled: the page says the rollout is over within moments of the server deciding
      // it (the fallback refresh, only while the live stream is down, waits 10 s).
      const asProvider = signedIn(DEMO.provider);
      await vi.waitFor(
        async () => {
          const { state } = await asProvider<{ state: string }>('GET', `/firmware/rollouts/${rolloutId}`);
          if (state !== 'completed') throw new Error(`rollout ${state}`);
        },
        { timeout: 30_000, interval: 200 },
      );
      await seen(page, /^Terminé$/, 3_000);
      await expect.poll(() => listed.textContent(), { timeout: 3_000 }).toMatch(/Terminé/);
      await list.close();
      // The chart of states over time covers the whole rollout, drawn from the server's history.
      await seen(page, 'Depuis le début du déploiement', 5_000);
      await expect.poll(() => page.getByText('Le graphique apparaît dès').count()).toBe(0);

      // A flowbox's page: its firmware card gives the new version and the update's history.
      await page.goto(`${zone.page}/flowbox/${devices[0]!.flowboxId}`);
      const card = page.getByRole('region', { name: 'Firmware', exact: true });
      await expect.poll(() => card.getByText(VERSION).count(), { timeout: 20_000 }).toBeGreaterThan(0);
      await expect(card.textContent()).resolves.toContain('2.4.0');
      for (const device of devices) expect(device.simulated.snapshot().versions.firmware).toBe(VERSION);

      // The zone's activity log tells the rollout in its own lines, in words, and no device's steps
      // nor its reboot into the new image (issue 30: five lines and more per device).
      await page.goto(`${zone.page}/events`);
      const lines = page.getByTestId('event-line');
      const line = (text: string) => lines.filter({ hasText: text });
      await expect
        .poll(() => line('Vers la version 3.7.1 : 2 flowbox en 1 vague').count(), { timeout: 10_000 })
        .toBe(1);
      await expect(line('a lancé le déploiement du firmware').textContent()).resolves.toContain(
        'Vers la version 3.7.1 : 2 flowbox en 1 vague',
      );
      await expect.poll(() => line('2 mis à jour, 0 en échec, 0 ignoré à son tour').count()).toBe(1);
      // A sentence opening on its object starts with a capital.
      await expect(line('2 mis à jour, 0 en échec').textContent()).resolves.toMatch(
        /^Le déploiement du firmware « .+ » est terminé/,
      );
      expect(await line('Mise à jour du firmware').count()).toBe(0);
      expect(await line('Redémarr').count()).toBe(0);
      await page.screenshot({ path: '/tmp/fw-rollout-log-fr.png', fullPage: true });
    } catch (error) {
      await page.screenshot({ path: '/tmp/fw17-fail.png', fullPage: true });
      throw error;
    } finally {
      await page.getByRole('button', { name: 'Anglais' }).click();
    }
    // The whole life of a rollout, from the upload to the flowbox's log: under the suite's load it
    // reached its last check after the default minute (2026-12-07).
  }, 180_000);

  it('holds a flowbox’s update back during its building’s opening hours: a warning with its box, then the update once asked for even so', async () => {
    const allDay = [{ start: '00:00', end: '24:00' }];
    const week = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
    const buildingApi = zone.api.replace(/\/zones\/[^/]+$/, '');
    await signedIn(DEMO.customer)('PUT', `${buildingApi}/update`, {
      opening_hours: Object.fromEntries(week.map((day) => [day, allDay])),
    });
    const OPEN_VERSION = '3.7.5';
    await uploadImage(OPEN_VERSION);
    const { page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    try {
      await page.goto(`${zone.page}/flowbox/${devices[1]!.flowboxId}`);
      const card = page.getByRole('region', { name: 'Firmware', exact: true });
      await card.getByRole('button', { name: 'Update the firmware' }).click();
      const dialog = page.getByRole('dialog', { name: 'Update the firmware' });
      await dialog.getByRole('radio', { name: new RegExp(OPEN_VERSION.replaceAll('.', '\\.')) }).check();
      await dialog.getByRole('button', { name: `Install ${OPEN_VERSION}` }).click();

      // A question put to the user, not a failure: a warning (amber, announced politely) holding
      // the box that answers it; no error.
      const warning = dialog.getByRole('status').filter({ hasText: 'The building is open now' });
      await warning.waitFor();
      await expect.poll(() => warning.textContent()).toContain('During opening hours');
      expect(await dialog.getByRole('alert').count()).toBe(0);
      const evenSo = warning.getByRole('checkbox', { name: 'Update even during opening hours' });
      expect(await evenSo.isChecked()).toBe(false);
      await evenSo.check();
      await dialog.getByRole('button', { name: `Install ${OPEN_VERSION}` }).click();
      await dialog.waitFor({ state: 'hidden' });

      // Sent: the device downloads and installs it, and the card follows.
      await expect
        .poll(() => card.getByText(OPEN_VERSION, { exact: true }).count(), { timeout: 30_000 })
        .toBeGreaterThan(0);
      await vi.waitFor(() => expect(devices[1]!.simulated.snapshot().versions.firmware).toBe(OPEN_VERSION), {
        timeout: 30_000,
        interval: 250,
      });
    } catch (error) {
      await page.screenshot({ path: '/tmp/fw17-open-fail.png', fullPage: true });
      throw error;
    } finally {
      await signedIn(DEMO.customer)('PUT', `${buildingApi}/update`, { opening_hours: null });
    }
  });
});
