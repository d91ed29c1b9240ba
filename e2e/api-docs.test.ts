import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage } from './browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

describe('the API docs in the browser (issue 30)', () => {
  it('draw the operations under their own CSP, which the browser never has to refuse anything of', async () => {
    const { context, page } = await newPage(browser);
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    try {
      const answer = await page.goto('/v1/docs/');
      expect(answer?.headers()['content-security-policy']).toContain("default-src 'none'");
      await page.getByRole('heading', { name: /Flowbox Manager API/ }).waitFor();
      await page.locator('.opblock').first().click();
      await page.getByRole('button', { name: 'Try it out' }).first().waitFor();
      expect(refused).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
