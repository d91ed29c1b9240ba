import type { SimulatedFlowbox } from '@flowbox/simulator';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, launchBrowser, newPage, signedIn, signIn } from './browser.ts';
import { createBuilding, pairSimulatedDevice, subscribedZone } from './fixtures.ts';

const SERIAL = 'FB-E2E-ALERT01';
const FACTORY_SECRET = 'E2E_alert_factory_secret_'.padEnd(43, 'x');

let browser: Browser;
let device: SimulatedFlowbox | undefined;

/** A subscribed zone with a simulated flowbox paired in it whose autotests fail. */
async function pairedFailingDevice(): Promise<{ flowbox: string; zoneName: string }> {
  const zone = await subscribedZone('Alert');
  const paired = await pairSimulatedDevice(zone, {
    serial: SERIAL,
    factorySecret: FACTORY_SECRET,
    seed: 8,
    pairingRetryMs: 5000,
    autotestResult: 'failed',
  });
  device = paired.simulated;
  await device.start();
  return { flowbox: paired.flowboxApi, zoneName: zone.name };
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await device?.stop();
  await browser.close();
});

describe('alerts in the browser', () => {
  it('shows a new alert live with the header count, then silences and resolves it', async () => {
    const asCustomer = signedIn(DEMO.customer);
    const { flowbox, zoneName } = await pairedFailingDevice();
    const { page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto('/alerts?category=flowbox_dysfunction');
    await page.getByRole('heading', { name: 'Notifications and alerts' }).waitFor();
    const item = page.getByTestId('alert-item').filter({ hasText: zoneName });
    expect(await item.count()).toBe(0);
    const badge = page.getByTestId('alert-count');
    // Other tests' alerts may be open: the count starts from what the server says, once shown.
    const before = (await asCustomer<{ open: number }>('GET', '/alerts/count')).open;
    const label = (n: number) => (n > 0 ? `${n} open alert${n > 1 ? 's' : ''}` : 'No open alert');
    await expect.poll(() => badge.getAttribute('aria-label'), { timeout: 10_000 }).toBe(label(before));

    // The device fails its autotest: the alert arrives without a reload, and the count follows.
    await asCustomer('POST', `${flowbox}/commands/send`, { name: 'autotest' });
    await expect.poll(() => item.count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => item.getAttribute('data-state')).toBe('open');
    await expect.poll(() => badge.getAttribute('aria-label')).toBe(label(before + 1));

    await item.getByRole('button', { name: /^Silence/ }).click();
    await expect.poll(() => item.getAttribute('data-state'), { timeout: 10_000 }).toBe('silenced');
    await expect.poll(() => badge.getAttribute('aria-label')).toBe(label(before));

    // Resolving asks first; cancelling changes nothing.
    await item.getByRole('button', { name: /^Resolve/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Resolve this alert?').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await item.getAttribute('data-state')).toBe('silenced');
    await item.getByRole('button', { name: /^Resolve/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Resolve' }).click();
    // Resolved alerts leave the default (open or silenced) list.
    await expect.poll(() => item.count(), { timeout: 10_000 }).toBe(0);
    await page.getByLabel('State').selectOption('resolved');
    await expect.poll(() => item.count(), { timeout: 10_000 }).toBe(1);
    expect(await item.textContent()).toContain('Resolved by');
  });

  it('filters the alerts by zone, and keeps a per-zone email choice after a reload', async () => {
    const asCustomer = signedIn(DEMO.customer);
    const { zonesApi } = await createBuilding(asCustomer, 'Zone filter building');
    // A zone in maintenance mode is told by a maintenance alert at the next sweep (docs/alerts.md).
    const zoneIds: Record<string, string> = {};
    for (const name of ['Filter zone North', 'Filter zone South'])
      zoneIds[name] = (
        await asCustomer<{ id: string }>('POST', `${zonesApi}/create`, {
          name,
          profile: 'office',
          flowbox_model: 'one_inch_v1',
          water_temperature: 'cold',
          maintenance_mode: true,
        })
      ).id;

    // The sweep raises them within seconds; the page is opened once they exist.
    const raised = async () =>
      (
        await asCustomer<{ items: { zone_id: string }[] }>(
          'GET',
          '/alerts/list?category=maintenance&limit=100',
        )
      ).items.filter((a) => Object.values(zoneIds).includes(a.zone_id)).length;
    await expect.poll(raised, { timeout: 30_000 }).toBe(2);

    const { page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto('/alerts?category=maintenance');
    const items = page.getByTestId('alert-item');
    const north = items.filter({ hasText: 'Filter zone North' });
    const south = items.filter({ hasText: 'Filter zone South' });
    await expect.poll(() => north.count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => south.count(), { timeout: 20_000 }).toBe(1);

    const filters = page.getByRole('region', { name: 'Filters' });
    const search = filters.getByRole('searchbox', { name: 'Search zones' });
    if (await search.isVisible()) await search.fill('north');
    await filters.getByLabel('Zone', { exact: true }).selectOption({ label: 'Filter zone North' });
    await expect.poll(() => south.count(), { timeout: 10_000 }).toBe(0);
    expect(await north.count()).toBe(1);
    expect(new URL(page.url()).searchParams.get('zone_id')).toBe(zoneIds['Filter zone North']);

    // Emails per zone: maintenance off for the north zone only, saved at once, still there after a reload.
    await page.goto('/alerts/settings');
    const zoneRow = () => page.getByTestId('zone-email-settings').filter({ hasText: 'Filter zone North' });
    const open = async () => {
      const perZone = page.getByRole('searchbox', { name: 'Search zones' });
      if (await perZone.isVisible()) await perZone.fill('Filter zone North');
      const toggle = zoneRow().getByRole('button', { name: /Filter zone North/ });
      await toggle.click();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    };
    await open();
    await zoneRow().getByLabel('Maintenance', { exact: true }).selectOption('off');
    await page.getByText('The zone’s email settings are saved').waitFor();
    await expect.poll(() => zoneRow().getByRole('button').textContent()).toContain('1 choice of its own');

    await page.reload();
    await open();
    expect(await zoneRow().getByLabel('Maintenance', { exact: true }).inputValue()).toBe('off');
    expect(await zoneRow().getByLabel('Leak detected', { exact: true }).inputValue()).toBe('inherit');
    const saved = await asCustomer<{ alerts_instance_settings: Record<string, unknown> }>('GET', '/users/me');
    expect(saved.alerts_instance_settings[zoneIds['Filter zone North']!]).toEqual({
      maintenance: { email: false },
    });
  });
});
