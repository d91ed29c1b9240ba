import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect, inject, onTestFailed } from 'vitest';

export const baseUrl = () => inject('baseUrl');
export const mqttUrl = () => inject('mqttUrl');

/** Waits until the page shows the text: live updates and navigations take a moment on a busy machine. */
export const seen = (page: Page, text: string | RegExp, timeout = 20_000) =>
  expect.poll(() => page.getByText(text).count(), { timeout }).toBeGreaterThan(0);

/**
 * Debian's Chromium, headless, with the flags this sandboxed machine needs (no network beyond loopback).
 * By default its headless shell (Debian's `chromium-headless-shell`, `CHROMIUM_HEADLESS_SHELL_PATH`):
 * the same Blink and V8 without the browser's user interface layer, which took half the browser
 * step's CPU (docs/decisions.md "CI's time budget"). `webPush` asks for the whole browser
 * (`CHROMIUM_PATH`): the shell has no push messaging, so its notification permission stays blocked.
 */
export function launchBrowser(options: { webPush?: boolean } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: options.webPush ? fullChromium() : headlessChromium(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

const fullChromium = () => process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DEBIAN_HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
/** The headless shell, or the whole browser where it is not installed (slower, same checks). */
const headlessChromium = () =>
  process.env.CHROMIUM_HEADLESS_SHELL_PATH ??
  (existsSync(DEBIAN_HEADLESS_SHELL) ? DEBIAN_HEADLESS_SHELL : fullChromium());

export async function newPage(
  browser: Browser,
  options: { locale?: string; clientAddress?: string } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    locale: options.locale ?? 'en-US',
    viewport: { width: 1280, height: 800 },
    // As a visitor of its own (the suite's server trusts a proxy on loopback): what is limited per
    // client address, like registrations, counts for this page alone, not for the whole suite.
    ...(options.clientAddress ? { extraHTTPHeaders: { 'x-forwarded-for': options.clientAddress } } : {}),
  });
  // Every tab of the context is described when its test fails, a second tab too.
  context.on('page', (tab) => describeOnFailure(tab));
  keepLastSightOnClose(context);
  const page = await context.newPage();
  return { context, page };
}

/** What a page showed when its context was closed: its address and its main part for a screen reader. */
const lastSight = new WeakMap<Page, string>();

/**
 * A test closes its context in `finally`, before its failure hooks run: the pages are read as they
 * close, so that a failure still says what they showed (describeOnFailure). A short look (the main
 * part's accessibility tree, no screenshot) at each close.
 */
function keepLastSightOnClose(context: BrowserContext): void {
  const close = context.close.bind(context);
  context.close = async (...args: Parameters<BrowserContext['close']>) => {
    for (const tab of context.pages()) {
      const part = (await tab.locator('main').count()) > 0 ? 'main' : 'body';
      lastSight.set(tab, `${tab.url()}:\n${await ariaOf(tab, part, 2_000)}`);
    }
    return close(...args);
  };
}

/** What a screen reader finds in a part of the page (its roles and names), or why it could not be read. */
const ariaOf = (page: Page, part: string, timeout: number) =>
  page
    .locator(part)
    .first()
    .ariaSnapshot({ timeout })
    .catch((error: Error) => `(no snapshot: ${error.message.split('\n')[0]})`);

let failures = 0;
/** Where a failed test's error tells what its page showed (scripts/test.mjs prints it). */
const PAGE_AT = 'The page at failure,';
/**
 * When the test that opened the page fails, what the page showed: its address, what a screen reader
 * finds on it (the roles and names the locators look for) and a screenshot, printed with the run's
 * output. A page opened outside a test (beforeAll) is not described.
 */
export function describeOnFailure(page: Page): void {
  try {
    onTestFailed(async ({ task }) => {
      const error = task.result?.errors?.[0];
      if (page.isClosed()) {
        // Closed by the test's own `finally`: what it showed then.
        const seen = lastSight.get(page);
        const told = `\n${PAGE_AT} ${seen?.slice(0, 1_500) ?? '(closed before it could be read)'}`;
        if (error?.stack) error.stack += told;
        else if (error) error.message += told;
        return;
      }
      const shot = `/tmp/e2e-failure-${process.pid}-${++failures}.png`;
      const [tree, main] = [await ariaOf(page, 'body', 5_000), await ariaOf(page, 'main', 5_000)];
      await page.screenshot({ path: shot, fullPage: true, timeout: 5_000 }).catch(() => undefined);
      console.error(`The page at ${page.url()} when the test failed (${shot}):\n${tree.slice(0, 4_000)}`);
      // The page's main part goes with the error too: `npm test` repeats it at the end of its output,
      // the part of a CI run's record that is kept.
      const told = `\n${PAGE_AT} ${page.url()}:\n${main.slice(0, 1_500)}`;
      if (error?.stack) error.stack += told;
      else if (error) error.message += told;
    });
  } catch {
    // Outside a test: nothing to describe.
  }
}

/** Calls the API directly (to read the outbox or prepare data), as a given user. */
export async function apiAs(email: string, password: string) {
  const res = await fetch(`${baseUrl()}/v1/users/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`login failed for ${email}: ${res.status}`);
  const { access_token } = (await res.json()) as { access_token: string };
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const answer = await fetch(`${baseUrl()}/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${access_token}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`);
    return (answer.status === 204 ? undefined : await answer.json()) as T;
  };
}

export type Api = Awaited<ReturnType<typeof apiAs>>;

/**
 * The API as a user, signed in afresh for each call: the browser tests' access tokens live five
 * seconds, less than a pairing or a page's checks take on a busy machine.
 */
export function signedIn(email: string, password = DEMO.password): Api {
  return async <T>(method: string, path: string, body?: unknown): Promise<T> =>
    (await apiAs(email, password))<T>(method, path, body);
}

/** Fills the open login page in and submits it, without waiting for the answer. */
export async function submitLogin(page: Page, email: string, password = DEMO.password): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in through the login page and lands on the dashboard, in English. */
export async function signIn(page: Page, email: string, password = DEMO.password): Promise<void> {
  await page.goto('/login');
  await page.getByRole('button', { name: 'English' }).click();
  await submitLogin(page, email, password);
  await page.waitForURL((url) => url.pathname === '/');
  // The user's own language applies after signing in; a French run before leaves it French.
  await page.getByRole('button', { name: /^(English|Anglais), EN$/ }).click();
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
}

export const DEMO = {
  password: 'flowbox-demo-1',
  provider: 'provider@demo.flowbox.local',
  customer: 'customer@demo.flowbox.local',
  site: 'site@demo.flowbox.local',
};

let visitors = 0;
/** A client address of its own (TEST-NET-2, RFC 5737), for calls limited per address. */
export function newVisitorAddress(): string {
  visitors++;
  return `198.51.${100 + Math.floor(visitors / 250)}.${(visitors % 250) + 1}`;
}
