import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { axeViolations } from './axe.ts';
import { baseUrl, DEMO, launchBrowser, newPage, newVisitorAddress, signedIn, signIn } from './browser.ts';
import { testZone } from './fixtures.ts';
import { sidewaysScrolls } from './layout.ts';

/*
 * The accessibility walk, run by e2e/a11y-desktop.test.ts and e2e/a11y-phone.test.ts (two files: the
 * walk is the browser step's longest, and two files can go to two groups side by side).
 *
 * axe-core (WCAG 2.1 A and AA) over every page issue 18 added, as the roles that use them, in
 * English and in French, on a phone and a desktop: each page loaded once per language and width.
 * The page must not scroll sideways either, nor any table in it. Lighthouse's accessibility score
 * runs the same engine on /login and the dashboard only (`npm run bench web`). The end user's zone
 * home is walked in e2e/myzone.test.ts, the "call a plumber" dialog in e2e/plumbers.test.ts.
 *
 * Some pages are photographed for the layout review: /tmp/a11y-<who>-<page>-<width>-<en|fr>.png.
 */

type Language = 'English' | 'Français';
export type Combination = { language: Language; width: number };
const PHOTOGRAPHED = new Set(['/fleet', '/users', '/settings', '/notifications', '/map', '/plumbers']);

/** The walk's people, pages and links, made by its file's set-up. */
type Walked = {
  browser: Browser;
  customerPages: string[];
  providerPages: string[];
  /** One registration link for each combination: a link works once. */
  confirmLinks: string[];
};

/** Makes the people and the links the walk needs: a zone of its own, `label` naming it. */
async function setUp(label: string, combinations: number): Promise<Walked> {
  const browser = await launchBrowser();
  const asCustomer = signedIn(DEMO.customer);
  const customerId = (await asCustomer<{ customer_id: string }>('GET', '/users/me')).customer_id;
  const customer = `/customers/${customerId}`;
  const zone = await testZone(label);
  const zoneId = zone.api.split('/').pop()!;
  const siteId = zone.api.split('/')[4]!;
  const stamp = `${label.replaceAll(' ', '-').toLowerCase()}.${Date.now()}`;
  const [endUser, plumberUser, plumber, claim] = await Promise.all([
    asCustomer<{ id: string }>('POST', `${customer}/end_users/create`, {
      firstname: 'Axel',
      lastname: 'Access',
      email: `axel.access.${stamp}@example.test`,
      language: 'en',
      zone_id: [zoneId],
    }),
    asCustomer<{ id: string }>('POST', `${customer}/plumbers/create`, {
      firstname: 'Ada',
      lastname: 'Access',
      email: `ada.access.${stamp}@example.test`,
      site_id: [siteId],
    }),
    asCustomer<{ id: string }>('POST', '/plumbers/create', {
      company: `Accessible Plumbing ${stamp}`,
      phone: '04 76 00 00 00',
      customer_id: customerId,
    }),
    asCustomer<{ code: string }>('POST', `${zone.api}/claim_codes/create`, { max_uses: 10 }),
  ]);
  // The customer manager's pages (issue 18), its end user's, plumber account's and plumber entry's included.
  const customerPages = [
    '/fleet',
    '/plumbers',
    '/plumbers/add',
    `/plumbers/${plumber.id}/edit`,
    '/plumbers/map',
    '/map',
    '/notifications',
    '/settings',
    `${customer}/registrations`,
    '/users',
    `${customer}/end-users`,
    `${customer}/end-users/add`,
    `${customer}/end-users/${endUser.id}/edit`,
    `${customer}/end-users/${endUser.id}/permissions`,
    `${customer}/plumber-users`,
    `${customer}/plumber-users/add`,
    `${customer}/plumber-users/${plumberUser.id}/edit`,
    `${customer}/plumber-users/${plumberUser.id}/permissions`,
  ];
  // Two pages of one component never follow each other: React would keep the title element the
  // walk waits to see replaced.
  const providerPages = [
    '/fleet',
    '/plumbers',
    '/plumbers/map',
    '/map',
    '/notifications',
    '/settings',
    `${customer}/end-users`,
    '/users',
    `${customer}/plumber-users`,
    `${customer}/registrations`,
  ];

  // Residents registering with the zone's code: each gets its confirmation link by email.
  const emails = Array.from({ length: combinations }, (_, i) => `a11y.resident.${i}.${stamp}@example.test`);
  const confirmLinks: string[] = [];
  for (const email of emails) {
    const answer = await fetch(`${baseUrl()}/v1/users/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': newVisitorAddress() },
      body: JSON.stringify({
        firstname: 'Rhea',
        lastname: 'Resident',
        email,
        claim_code: claim.code,
        terms_accepted: true,
      }),
    });
    expect(answer.status).toBe(201);
  }
  const asProvider = signedIn(DEMO.provider);
  await vi.waitFor(
    async () => {
      const outbox = await asProvider<{ items: { to: string; text: string }[] }>('GET', '/outbox');
      confirmLinks.length = 0;
      for (const email of emails) {
        const link = outbox.items
          .find((m) => m.to === email)
          ?.text.match(/https?:\/\/\S+\/register\/confirm\?token=\S+/)?.[0];
        if (!link) throw new Error(`no confirmation link for ${email} yet`);
        confirmLinks.push(new URL(link).pathname + new URL(link).search);
      }
    },
    { timeout: 15_000, interval: 250 },
  );
  return { browser, customerPages, providerPages, confirmLinks };
}

/** The page is drawn: its title is there and no section is still loading. */
async function settled(page: Page): Promise<void> {
  await page.locator('h1:not([data-walked])').first().waitFor();
  await expect
    .poll(() => page.locator('[role="status"].animate-spin, .animate-spin[role="status"]').count())
    .toBe(0);
}

/**
 * Opens an address inside the running app, as a link would: a reload for each page races the
 * five-second access tokens' refresh of the browser tests and may sign the user out (the walk then
 * checked the sign-in page). The page before's title is marked, so the new one is waited for.
 */
async function openInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    document.querySelector('h1')?.setAttribute('data-walked', '');
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/**
 * Controls too narrow for their text: a select whose chosen option, or a box whose placeholder, is
 * cut off. Measured with the control's own font, inside its padding (and a select's arrow).
 */
function clippedControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const context = document.createElement('canvas').getContext('2d')!;
    const clipped: string[] = [];
    const controls = document.querySelectorAll<HTMLSelectElement | HTMLInputElement>(
      'select, input[placeholder]',
    );
    for (const control of Array.from(controls)) {
      if (control.offsetParent === null) continue;
      const text =
        control instanceof HTMLSelectElement ? (control.selectedOptions[0]?.text ?? '') : control.placeholder;
      const style = getComputedStyle(control);
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const arrow = control instanceof HTMLSelectElement ? 20 : 0;
      const room =
        control.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - arrow;
      if (context.measureText(text).width > room + 1)
        clipped.push(`"${text}" (${control.name || control.id})`);
    }
    return clipped;
  });
}

/** The registration's confirmation page shows its password form (or, without a token, its refusal). */
async function confirmationAnswered(page: Page): Promise<void> {
  await page.locator('form, div[role="alert"]').first().waitFor();
}

/**
 * Opens each page once, as the user (or a visitor) in the language and at the width, and returns
 * what is wrong: axe's violations, a page or a table that scrolls sideways, a control that cuts its
 * text off, a phone number broken over two lines.
 */
async function walk(
  browser: Browser,
  email: string | null,
  paths: string[],
  language: Language,
  width: number,
) {
  const { context, page } = await newPage(browser);
  const problems: string[] = [];
  try {
    await page.setViewportSize({ width, height: width < 640 ? 844 : 800 });
    if (email) await signIn(page, email);
    else await page.goto('/login');
    const languageButton = (chosen: Language) =>
      page.getByRole('button', {
        name: chosen === 'English' ? /^(English|Anglais), EN$/ : /^(Français|French), FR$/,
      });
    await languageButton(language).click();
    for (const path of paths) {
      if (email) await openInApp(page, path);
      else await page.goto(path);
      await settled(page);
      if (path.startsWith('/register/confirm')) await confirmationAnswered(page);
      // The page meant, not the sign-in page, the dashboard a refusal sends to, nor the 403 page.
      expect(new URL(page.url()).pathname).toBe(new URL(path, baseUrl()).pathname);
      expect(await page.getByRole('heading', { name: /^(Access denied|Accès refusé)$/ }).count()).toBe(0);
      const where = `${path} in ${language} at ${width} px`;
      problems.push(...(await axeViolations(page)).map((v) => `${where}: ${v}`));
      problems.push(...(await sidewaysScrolls(page)).map((problem) => `${where}: ${problem}`));
      problems.push(...(await clippedControls(page)).map((c) => `${where}: control cuts its text off: ${c}`));
      const brokenPhones = await page.evaluate(() =>
        Array.from(document.querySelectorAll('a[href^="tel:"]'))
          .filter((link) => link.getClientRects().length > 1)
          .map((link) => link.textContent),
      );
      problems.push(...brokenPhones.map((phone) => `${where}: phone number broken over two lines: ${phone}`));
      if (PHOTOGRAPHED.has(path)) {
        const who = email?.split('@')[0] ?? 'visitor';
        const name = `a11y-${who}-${path.slice(1).replaceAll('/', '-')}-${width}-${language === 'English' ? 'en' : 'fr'}`;
        await page.screenshot({ path: `/tmp/${name}.png`, fullPage: true });
      }
    }
    // The demo users speak English to the other tests' sign-ins.
    if (email && language !== 'English') await languageButton('English').click();
  } finally {
    await context.close();
  }
  return problems;
}

/**
 * The walk in each combination of language and width, a test each. `label` names the file's zone
 * and people (two files walk side by side, in the browser step's groups).
 */
export function describeWalks(label: string, combinations: Combination[]): void {
  describe('the pages of issue 18 pass axe and fit the screen', () => {
    let walked: Walked;
    beforeAll(async () => {
      walked = await setUp(label, combinations.length);
    });
    afterAll(async () => {
      await walked?.browser.close();
    });
    combinations.forEach(({ language, width }, i) => {
      it(`in ${language} at ${width} px: a customer manager's, a provider's, a visitor's registration`, async () => {
        const { browser, customerPages, providerPages, confirmLinks } = walked;
        const problems = [
          ...(await walk(browser, DEMO.customer, customerPages, language, width)),
          ...(await walk(browser, DEMO.provider, providerPages, language, width)),
          ...(await walk(
            browser,
            null,
            ['/register', confirmLinks[i]!, '/register/confirm?token=not-a-token'],
            language,
            width,
          )),
        ];
        expect(problems).toEqual([]);
      }, 180_000);
    });
  });
}
