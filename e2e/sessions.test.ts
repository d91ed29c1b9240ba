import type { Browser, BrowserContext, Cookie, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { DEMO, launchBrowser, newPage, signIn } from './browser.ts';
import { E2E_ACCESS_TOKEN_TTL } from './global-setup.ts';

/*
 * A session outlives its access tokens (spec §4 token refresh), in the ways people really use a
 * browser: several tabs sharing the token cookies, a page reloaded or a network dropped while a
 * refresh is on the wire (docs/decisions.md "Refresh token reuse"). The suite's access tokens live
 * E2E_ACCESS_TOKEN_TTL seconds, so each wait below outlives one.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

const outliveAccessToken = (page: Page) => page.waitForTimeout(E2E_ACCESS_TOKEN_TTL * 1000 + 500);

/** The tabs' access token cookie, as it is now. */
async function accessCookie(context: BrowserContext): Promise<Cookie> {
  const cookie = (await context.cookies()).find((c) => c.name === 'access_token');
  if (!cookie) throw new Error('no access_token cookie: the tabs are not signed in');
  return cookie;
}

/**
 * Every API call of the context's tabs, in order: which tab, the call, the last characters of its
 * Bearer and of the tokens a refresh answered. A failure of the test tells it with its error: a tab
 * sent to the sign-in page has a reason in it (a refused refresh, a call sent with the wrong token).
 */
function logApiCalls(context: BrowserContext): void {
  const lines: string[] = [];
  const tabs = new Map<Page, number>();
  const tab = (request: Request) => {
    let page: Page;
    try {
      page = request.frame().page();
    } catch {
      return 'worker'; // a service worker's request has no frame
    }
    if (!tabs.has(page)) tabs.set(page, tabs.size + 1);
    return `tab ${tabs.get(page)}`;
  };
  const started = Date.now();
  const at = () => `${((Date.now() - started) / 1000).toFixed(2)} s`;
  const tail = (token: string | undefined) => (token ? token.slice(-8) : '-');
  context.on('request', (request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith('/v1/')) return;
    const bearer = request.headers().authorization?.replace(/^Bearer /, '');
    lines.push(`${at()} ${tab(request)} ${request.method()} ${url.pathname} bearer ${tail(bearer)}`);
  });
  context.on('response', async (response) => {
    const url = new URL(response.url());
    if (!url.pathname.startsWith('/v1/')) return;
    let tokens = '';
    if (url.pathname === '/v1/users/refresh' && response.ok()) {
      const body = (await response.json().catch(() => ({}))) as {
        access_token?: string;
        refresh_token?: string;
      };
      tokens = ` access ${tail(body.access_token)} refresh ${tail(body.refresh_token)}`;
    }
    lines.push(`${at()} ${tab(response.request())} ${response.status()} ${url.pathname}${tokens}`);
  });
  onTestFailed(({ task }) => {
    const error = task.result?.errors?.[0];
    const told = `\nThe tabs' API calls:\n${lines.slice(-80).join('\n')}`;
    if (error?.stack) error.stack += told;
    else if (error) error.message += told;
  });
}

async function onDashboard(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/');
}

describe('a session', () => {
  it('stays open in two tabs that refresh their tokens at the same moment', async () => {
    const { context, page: first } = await newPage(browser);
    logApiCalls(context);
    try {
      await signIn(first, DEMO.customer);
      const second = await context.newPage();
      await second.goto('/');
      await onDashboard(second);
      // Both tabs find an expired access token and present the same refresh token: each refresh
      // is held until another has been sent too. One without a partner (a tab's live channel
      // renewing its token on its own, earlier than the reloads on a slow machine) goes after
      // three seconds, rather than holding that tab, and the next pair, for good.
      let waiting: (() => void)[] = [];
      let pairs = 0;
      await context.route('**/v1/users/refresh', async (route) => {
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          if (waiting.length === 2) {
            pairs++;
            for (const go of waiting) go();
            waiting = [];
            return;
          }
          setTimeout(() => {
            waiting = waiting.filter((go) => go !== resolve);
            resolve();
          }, 3_000);
        });
        await route.continue();
      });
      for (let round = 0; round < 2; round++) {
        const pairsBefore = pairs;
        const stale = await accessCookie(context);
        await outliveAccessToken(first);
        // A tab's live channel may have renewed the tokens on its own meanwhile (at the token's
        // expiry, earlier than the reloads): the reloads would then find a fresh access token and
        // send no refresh at all. The tabs are given back the access token that has now expired,
        // as a slower live channel leaves it, so that both reloads refresh.
        await context.addCookies([stale]);
        await Promise.all([first.reload(), second.reload()]);
        await Promise.all([onDashboard(first), onDashboard(second)]);
        // The two tabs' refreshes did cross: held together, sent at the same moment.
        expect(pairs).toBeGreaterThan(pairsBefore);
      }
    } finally {
      await context.close();
    }
  });

  it('stays open when a refresh answer is lost on the way back, and the page reloads', async () => {
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, DEMO.customer);
      let rotated!: () => void;
      const serverRotated = new Promise<void>((resolve) => (rotated = resolve));
      // The server rotates the token, the browser never hears the answer.
      await page.route('**/v1/users/refresh', async (route) => {
        await route.fetch();
        rotated();
        await route.abort('connectionreset');
      });
      await outliveAccessToken(page);
      // The next call refreshes: the live channel's own, or this navigation's.
      const navigation = page
        .getByRole('link', { name: /^Alerts/ })
        .first()
        .click({ timeout: 10_000 })
        .catch(() => undefined);
      await serverRotated;
      await navigation;
      await page.unrouteAll({ behavior: 'ignoreErrors' });
      // A lost answer is a network failure, not an ended session: the user is not sent away, and
      // the browser keeps its tokens.
      await page.waitForTimeout(1000);
      expect(new URL(page.url()).pathname).not.toBe('/login');
      expect((await context.cookies()).map((c) => c.name)).toContain('refresh_token');
      await page.goto('/');
      await onDashboard(page);
    } finally {
      await context.close();
    }
  });
});
