/**
 * Draws the installed app's icons (packages/web/public/icons, docs/push.md "Installing the app")
 * from packages/web/public/favicon.svg with headless Chromium, so that they never drift from the
 * favicon: `node scripts/web-icons.mjs` after changing it, then commit the PNGs.
 *
 * - icon-192.png, icon-512.png: the favicon as it is (rounded corners, transparent outside);
 * - icon-maskable-512.png: the drop on a full square of the favicon's blue, well within the
 *   inner 80 % (Android crops maskable icons to a circle or a squircle of at least that);
 * - apple-touch-icon.png (180 px): a full square too, which iOS rounds itself (a transparent
 *   corner would show black on the Home Screen).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const root = resolve(import.meta.dirname, '..');
const publicDir = join(root, 'packages/web/public');
const svg = readFileSync(join(publicDir, 'favicon.svg'), 'utf8');
/** The favicon's background: the app's theme colour (manifest.webmanifest `theme_color`). */
const BLUE = /<rect[^>]*fill="(#[0-9a-f]{6})"/i.exec(svg)?.[1];
if (!BLUE) throw new Error('favicon.svg has no background rect with a fill colour');

/** The favicon's drop alone: its background rect removed, for the full-square icons. */
const drop = svg.replace(/<rect[^>]*\/>/, '');

const ICONS = [
  { file: 'icons/icon-192.png', size: 192, html: (s) => image(svg, s) },
  { file: 'icons/icon-512.png', size: 512, html: (s) => image(svg, s) },
  { file: 'icons/icon-maskable-512.png', size: 512, html: (s) => square(s, 0.8) },
  { file: 'icons/apple-touch-icon.png', size: 180, html: (s) => square(s, 0.9) },
];

function image(source, box) {
  const url = `data:image/svg+xml;base64,${Buffer.from(source).toString('base64')}`;
  return `<img src="${url}" width="${box}" height="${box}" style="display:block">`;
}

function square(size, share) {
  const layout = `width:${size}px;height:${size}px;display:flex;align-items:center;justify-content:center`;
  return `<div style="${layout};background:${BLUE}">${image(drop, Math.round(size * share))}</div>`;
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  for (const icon of ICONS) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${icon.html(icon.size)}</body></html>`,
    );
    await page.locator('img').evaluate((img) => img.decode());
    await page.screenshot({ path: join(publicDir, icon.file), omitBackground: true });
    await page.close();
    console.log(`wrote packages/web/public/${icon.file}`);
  }
} finally {
  await browser.close();
}
