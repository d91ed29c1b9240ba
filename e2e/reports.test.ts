import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { DEMO, launchBrowser, newPage, seen, signedIn, signIn } from './browser.ts';
import { sidewaysScrolls } from './layout.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

describe("a customer's reports in the browser (issue 33, docs/reports.md)", () => {
  it('schedules a report, generates one now, offers its files, in English and French, at 1280 and 390 px', async () => {
    const asCustomer = signedIn(DEMO.customer);
    const me = await asCustomer<{ customer_id: string; firstname: string; lastname: string }>(
      'GET',
      '/users/me',
    );
    const base = `/customers/${me.customer_id}`;
    for (const schedule of (
      await asCustomer<{ items: { id: string; name: string }[] }>('GET', `${base}/report_schedules/list`)
    ).items)
      await asCustomer('DELETE', `${base}/report_schedules/${schedule.id}/delete`, {
        confirm_name: schedule.name,
      });
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, DEMO.customer);
      await page.goto(`${base}/reports`);
      await page.getByRole('heading', { name: 'Reports', exact: true }).first().waitFor();
      await seen(page, 'No scheduled report yet.');

      await page.getByRole('button', { name: 'Schedule a report' }).click();
      const form = page.getByRole('dialog', { name: 'New scheduled report' });
      await form.getByLabel('Name').fill('Monthly for the board');
      await form.getByLabel(new RegExp(`^${me.firstname} ${me.lastname}`)).check();
      await form.getByRole('button', { name: 'Save' }).click();
      await page
        .getByRole('rowheader', { name: 'Monthly for the board' })
        .or(page.getByText('Monthly for the board'))
        .first()
        .waitFor();

      await page.getByRole('button', { name: 'Generate', exact: true }).click();
      await seen(page, 'Generated on demand', 60_000);
      await page
        .getByRole('button', { name: /^Download the PDF of / })
        .first()
        .waitFor();
      await expectAccessible(page, 'the reports page');
      expect(await sidewaysScrolls(page)).toEqual([]);
      await page.screenshot({ path: '/tmp/reports-1280.png', fullPage: true });

      const download = page.waitForEvent('download');
      await page
        .getByRole('button', { name: /^Download the PDF of / })
        .first()
        .click();
      expect((await download).suggestedFilename()).toMatch(
        /^report-\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.pdf$/,
      );

      await page.getByRole('button', { name: /^(Français|French), FR$/ }).click();
      await seen(page, 'Rapports programmés');
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await sidewaysScrolls(page)).toEqual([]);
      await expectAccessible(page, 'the reports page in French on a phone');
      await page.screenshot({ path: '/tmp/reports-390-fr.png', fullPage: true });
      await page.getByRole('button', { name: /^(English|Anglais), EN$/ }).click();
    } catch (error) {
      await page.screenshot({ path: '/tmp/reports-failure.png' }).catch(() => undefined);
      throw error;
    } finally {
      await context.close();
    }
    const [schedule] = (
      await asCustomer<{ items: { name: string; recipients: { name: string }[] }[] }>(
        'GET',
        `${base}/report_schedules/list`,
      )
    ).items;
    expect(schedule).toMatchObject({
      name: 'Monthly for the board',
      recipients: [{ name: `${me.firstname} ${me.lastname}` }],
    });
  }, 180_000);
});
