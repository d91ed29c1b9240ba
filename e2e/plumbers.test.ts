import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { DEMO, launchBrowser, newPage, seen, signedIn, signIn, type Api } from './browser.ts';
import { customerSite } from './fixtures.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

/** A site of the demo customer at these coordinates, created for the test: its API path and ids. */
async function placedSite(asCustomer: Api, name: string, latitude: number, longitude: number) {
  const { customer_id } = await asCustomer<{ customer_id: string }>('GET', '/users/me');
  const site = await asCustomer<{ id: string }>('POST', `/customers/${customer_id}/sites/create`, {
    name,
    latitude,
    longitude,
  });
  return { customerId: customer_id, siteId: site.id, api: `/customers/${customer_id}/sites/${site.id}` };
}

const tilesServed = async () =>
  ((await (await fetch(`${inject('tileServerUrl')}/count`)).json()) as { served: number }).served;

describe('plumbers and maps in the browser (issue 18)', () => {
  // Passes alone; in the whole browser suite (CI, 2026-11-26 13:02) the save stayed on the form
  // for 30 s after the end-users merge. Skipped until that is understood: see the stop 25 note.
  it('adds, edits and deletes a plumber in French', async () => {
    const { context, page } = await newPage(browser, { locale: 'fr-FR' });
    try {
      await page.goto('/login');
      // Chosen on this browser, French wins over the English of the user's profile.
      await page.getByRole('button', { name: 'Français' }).click();
      await page.getByLabel('Email').fill(DEMO.customer);
      await page.getByLabel('Mot de passe', { exact: true }).fill(DEMO.password);
      await page.getByRole('button', { name: 'Se connecter' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await page.goto('/plumbers');
      await page.getByRole('heading', { name: 'Plombiers', exact: true }).waitFor();
      await page.getByRole('link', { name: 'Ajouter un plombier' }).click();
      // The list stays on screen until the form is there: typed too early, the company went to the
      // list's search field, then labelled "Rechercher par entreprise, …" (CI, stop 26).
      await page.getByRole('heading', { name: 'Nouveau plombier', exact: true }).waitFor();
      await page.getByLabel('Entreprise', { exact: true }).fill('Plomberie du Rhône');
      await page.getByLabel('Téléphone', { exact: true }).fill('+33 4 78 00 00 00');
      await page.getByLabel('Latitude').fill('45,7578');
      await page.getByLabel('Longitude').fill('4.832');
      await page.getByLabel('Réparation de fuites').check();
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await page.waitForURL((url) => url.pathname === '/plumbers');
      const row = page.getByRole('row', { name: /Plomberie du Rhône/ });
      await row.waitFor();
      expect(await row.getByRole('link', { name: /Appeler Plomberie du Rhône/ }).getAttribute('href')).toBe(
        'tel:+33478000000',
      );

      await row.getByRole('link', { name: /Modifier/ }).click();
      // Exact: the list, which may still be on screen, says "téléphone" in its search field's hint.
      const phone = page.getByLabel('Téléphone', { exact: true });
      // The form shows the plumber's own record before it is typed over.
      await expect.poll(() => phone.inputValue()).toBe('+33 4 78 00 00 00');
      await phone.fill('04 72 00 00 00');
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await seen(page, 'Le plombier a été mis à jour');
      await page.waitForURL((url) => url.pathname === '/plumbers');
      // What the server holds, so that a failure below says whether the save or the list is wrong.
      const saved = await signedIn(DEMO.customer)<{ items: { company: string; phone: string }[] }>(
        'GET',
        '/plumbers/list?search=Rh%C3%B4ne',
      );
      expect(saved.items.map((p) => p.phone)).toEqual(['04 72 00 00 00']);
      await expect.poll(() => row.getByText('04 72 00 00 00').count()).toBe(1);

      // A search that finds nothing, then the deletion once its name is typed.
      await page.getByLabel(/Rechercher/).fill('zzz-nothing');
      await expect.poll(() => page.getByText('Aucun résultat', { exact: false }).count()).toBeGreaterThan(0);
      await page.getByLabel(/Rechercher/).fill('Rhône');
      await row.getByRole('button', { name: /Supprimer/ }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Nom à confirmer').fill('Plomberie du Rhône');
      await dialog.getByRole('button', { name: 'Supprimer' }).click();
      await expect.poll(() => page.getByRole('row', { name: /Plomberie du Rhône/ }).count()).toBe(0);
    } catch (error) {
      await page.screenshot({ path: '/tmp/plumbers-crud-failure.png' }).catch(() => undefined);
      throw error;
    } finally {
      await context.close();
    }
  });

  it('shows plumbers and sites as markers over tiles from the local tile server, with lists beside', async () => {
    const asCustomer = signedIn(DEMO.customer);
    const site = await customerSite(asCustomer);
    await asCustomer('PUT', `${site}/update`, { latitude: 45.7606, longitude: 4.8593 });
    await asCustomer('POST', '/plumbers/create', {
      company: 'Part-Dieu Plomberie',
      phone: '0400000000',
      latitude: 45.761,
      longitude: 4.85,
      service_radius_km: 15,
      customer_id: site.split('/')[2],
    });
    const before = await tilesServed();
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, DEMO.customer);
      await page.goto('/plumbers/map');
      await page.getByRole('region', { name: 'Plumbers map' }).waitFor();
      await expect.poll(() => page.locator('path.map-marker-plumber').count()).toBeGreaterThan(0);
      await expect
        .poll(() => page.locator('path.map-marker:not(.map-marker-plumber)').count())
        .toBeGreaterThan(0);
      await expect
        .poll(() => page.locator('img.leaflet-tile-loaded').count(), { timeout: 20_000 })
        .toBeGreaterThan(0);
      const src = await page.locator('img.leaflet-tile').first().getAttribute('src');
      expect(src?.startsWith(`${inject('tileServerUrl')}/tiles/`)).toBe(true);
      expect(await tilesServed()).toBeGreaterThan(before);
      // The same facts without the map: the plumbers and the sites as tables.
      await page.getByRole('rowheader', { name: 'Part-Dieu Plomberie' }).waitFor();

      await page.goto('/map');
      await page.getByRole('region', { name: 'Map of sites' }).waitFor();
      await expect.poll(() => page.locator('path.map-marker').count()).toBeGreaterThan(0);
      await expect.poll(() => page.getByRole('table', { name: 'Sites' }).count()).toBe(1);
    } finally {
      await context.close();
    }
  });

  it('shows a site’s and a plumber’s names as text in the map tooltips, never as markup (issue 30)', async () => {
    const markup = '<img src=x id=injected><b id=bold>x</b>';
    const asCustomer = signedIn(DEMO.customer);
    // Far from every other marker, so that it is never under another one.
    const site = await placedSite(asCustomer, markup, 64.1466, -21.9426);
    await asCustomer('POST', '/plumbers/create', {
      company: `${markup} plumber`,
      phone: '0400000000',
      latitude: 64.15,
      longitude: -21.95,
      customer_id: site.customerId,
    });
    const tooltipsOf = async (page: Page) => {
      const markers = page.locator('path.map-marker');
      await expect.poll(() => markers.count()).toBeGreaterThan(0);
      // Each marker's tooltip opens as the pointer comes over it (an event, whatever lies on top).
      for (const marker of await markers.all()) await marker.dispatchEvent('mouseover');
      return page.locator('.leaflet-tooltip').allTextContents();
    };
    const { context, page } = await newPage(browser);
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    try {
      await signIn(page, DEMO.provider);
      await page.goto('/map');
      await page.getByRole('region', { name: 'Map of sites' }).waitFor();
      await expect
        .poll(async () => (await tooltipsOf(page)).some((text) => text.startsWith(`${markup} — `)))
        .toBe(true);
      expect(await page.locator('#injected, #bold').count()).toBe(0);
      // The credit of the tiles is text too, its link a link.
      const credit = page.locator('.leaflet-control-attribution');
      expect(await credit.textContent()).toContain('OpenStreetMap');
      expect(await credit.getByRole('link', { name: 'OpenStreetMap' }).getAttribute('href')).toBe(
        'https://www.openstreetmap.org/copyright',
      );
      await context.close();

      const customer = await newPage(browser);
      customer.page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      try {
        await signIn(customer.page, DEMO.customer);
        await customer.page.goto('/plumbers/map');
        await customer.page.getByRole('region', { name: 'Plumbers map' }).waitFor();
        await expect
          .poll(async () => {
            const texts = await tooltipsOf(customer.page);
            return [`${markup} — `, `${markup} plumber — `].every((start) =>
              texts.some((text) => text.startsWith(start)),
            );
          })
          .toBe(true);
        expect(await customer.page.locator('#injected, #bold').count()).toBe(0);
      } finally {
        await customer.context.close();
      }
      // Leaflet draws with inline styles set from script, which a CSP without 'unsafe-inline' allows.
      expect(violations).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('sets a site’s coordinates by a click on the map of its form', async () => {
    const asCustomer = signedIn(DEMO.customer);
    const site = await placedSite(asCustomer, `Clicked on the map ${Date.now()}`, 45.1885, 5.7245);
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, DEMO.customer);
      await page.goto(`${site.api}/edit`);
      const latitude = page.getByLabel('Latitude');
      const longitude = page.getByLabel('Longitude');
      await expect.poll(() => latitude.inputValue()).toBe('45.1885');
      await page.getByRole('button', { name: 'Place on the map' }).click();
      const map = page.getByRole('region', { name: 'Place on the map' });
      await map.waitFor();
      // The map is centred on the site's marker once its tiles are drawn.
      await page.locator('path.map-marker-picked').waitFor();
      await expect.poll(() => page.locator('img.leaflet-tile-loaded').count()).toBeGreaterThan(0);
      const box = (await map.boundingBox())!;
      // North-east of the centre: a higher latitude, a greater longitude.
      await map.click({ position: { x: box.width / 2 + 80, y: box.height / 2 - 60 } });
      await expect.poll(() => latitude.inputValue()).not.toBe('45.1885');
      const picked = {
        latitude: Number(await latitude.inputValue()),
        longitude: Number(await longitude.inputValue()),
      };
      expect(picked.latitude).toBeGreaterThan(45.1885);
      expect(picked.longitude).toBeGreaterThan(5.7245);
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL((url) => url.pathname === site.api);
      const saved = await asCustomer<{ latitude: number; longitude: number }>('GET', `${site.api}/info`);
      expect({ latitude: saved.latitude, longitude: saved.longitude }).toEqual(picked);
    } finally {
      await context.close();
    }
  });

  it('lets a manager call a plumber from an alert, in French, the dialog accessible', async () => {
    const asCustomer = signedIn(DEMO.customer);
    const stamp = Date.now();
    const site = await placedSite(asCustomer, `Site d’appel ${stamp}`, 45.7578, 4.832);
    const buildingName = `Immeuble d’appel ${stamp}`;
    const building = await asCustomer<{ id: string }>('POST', `${site.api}/buildings/create`, {
      name: buildingName,
      type: 'office',
      address: '2 place Bellecour',
      city: 'Lyon',
      zipCode: '69002',
      country: 'FR',
      timezone: 'Europe/Paris',
      volume_unit: 'm3',
      currency: 'EUR',
      first_day_of_week: 'monday',
    });
    // A zone in maintenance mode is told by a maintenance alert at the next sweep (docs/alerts.md).
    const zone = await asCustomer<{ id: string }>(
      'POST',
      `${site.api}/buildings/${building.id}/zones/create`,
      {
        name: `Zone d’appel ${stamp}`,
        profile: 'office',
        flowbox_model: 'one_inch_v1',
        water_temperature: 'cold',
        maintenance_mode: true,
      },
    );
    const company = `Plomberie Bellecour ${stamp}`;
    await asCustomer('POST', '/plumbers/create', {
      company,
      phone: '04 78 11 22 33',
      latitude: 45.76,
      longitude: 4.835,
      service_radius_km: 10,
      customer_id: site.customerId,
    });
    await expect
      .poll(
        async () =>
          (await asCustomer<{ items: unknown[] }>('GET', `/alerts/list?zone_id=${zone.id}&state=active`))
            .items.length,
        { timeout: 30_000 },
      )
      .toBeGreaterThan(0);
    const { context, page } = await newPage(browser, { locale: 'fr-FR' });
    try {
      // Chosen on this browser, French wins over the English of the user's profile, left as it is.
      await page.goto('/login');
      await page.getByRole('button', { name: 'Français' }).click();
      await page.getByLabel('Email').fill(DEMO.customer);
      await page.getByLabel('Mot de passe', { exact: true }).fill(DEMO.password);
      await page.getByRole('button', { name: 'Se connecter' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await page.goto(`/notifications?zone_id=${zone.id}`);
      const item = page.getByTestId('alert-item').filter({ hasText: `Zone d’appel ${stamp}` });
      await item.first().waitFor();
      await item.getByRole('button', { name: /Appeler un plombier/ }).click();
      const dialog = page.getByRole('dialog', { name: `Plombiers proches de ${buildingName}` });
      await dialog.waitFor();
      const line = dialog.getByRole('listitem').filter({ hasText: company });
      await line.waitFor();
      // French numbers: a decimal comma.
      expect(await line.textContent()).toMatch(/À \d+(,\d)? km · Intervient jusqu’ici/);
      expect(
        await line.getByRole('link', { name: `Appeler ${company} : 04 78 11 22 33` }).getAttribute('href'),
      ).toBe('tel:0478112233');
      await expectAccessible(page, 'the call-a-plumber dialog, in French');
      await page.screenshot({ path: '/tmp/call-plumber-fr.png' });
      await dialog.getByRole('button', { name: 'Fermer' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
