import type { NotificationPreferencesAnswer } from '@flowbox/shared';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { DEMO, launchBrowser, newPage, seen, signedIn, signIn, type Api } from './browser.ts';
import { invitedResident, testZone } from './fixtures.ts';
import { sidewaysScrolls } from './layout.ts';

/*
 * "How you are told" on the settings page (issue 33, docs/alerts.md "How each person is told"), as
 * an end user and as the demo customer manager, in English and French: the defaults shown, a
 * choice saved and kept across a reload, the server's refusal of critical alerts that would wait on
 * every channel shown under "Critical alerts" with nothing saved, the card reached and labelled by
 * keyboard, axe-clean. With E2E_SCREENSHOTS=<dir>, photographed at 390 and 1280 px.
 */

const PASSWORD = 'notify-prefs-1';
const SHOTS = process.env.E2E_SCREENSHOTS;

const TEXTS = {
  en: {
    title: 'How you are told',
    critical: 'Critical alerts',
    other: 'Other alerts',
    push: 'Notifications on your devices',
    email: 'Email',
    now: 'At once',
    unopened: 'If not opened within 10 min',
    off: 'Never',
    quiet_title: 'Quiet hours',
    quiet: /^Hold back alerts that can wait during these hours/,
    from: 'From',
    until: 'Until',
    save: 'Save how I am told',
    saved: 'Saved: this is how you will be told.',
    refused: /^Choose at least one channel at once for critical alerts/,
  },
  fr: {
    title: 'Comment vous êtes averti',
    critical: 'Alertes critiques',
    other: 'Autres alertes',
    push: 'Notifications sur vos appareils',
    email: 'E-mail',
    now: 'Immédiatement',
    unopened: 'Si non ouverte sous 10 min',
    off: 'Jamais',
    quiet_title: 'Heures calmes',
    quiet: /^Retenir pendant ces heures les alertes qui peuvent attendre/,
    from: 'De',
    until: 'À',
    save: 'Enregistrer ma façon d’être averti',
    saved: 'Enregistré : vous serez averti ainsi.',
    refused: /^Choisissez au moins un canal immédiat pour les alertes critiques/,
  },
} as const;
type Language = keyof typeof TEXTS;
type Texts = (typeof TEXTS)[Language];

type Person = { email: string; password: string };

const DEFAULTS = {
  channels: { critical: { push: 'now', email: 'now' }, other: { push: 'off', email: 'now' } },
  quiet_hours: null,
} as const;

let browser: Browser;
/** What the demo customer manager had chosen before this file: put back after it. */
let customerBefore: Omit<NotificationPreferencesAnswer, 'escalation_minutes'>;
const residents: Partial<Record<Language, Person>> = {};

beforeAll(async () => {
  browser = await launchBrowser();
  const zone = await testZone('Notify prefs');
  const zoneId = zone.api.split('/').pop()!;
  // One resident per language: each meets the card before choosing anything, its true defaults.
  for (const language of ['en', 'fr'] as const) {
    const { email } = await invitedResident([zoneId], { language, password: PASSWORD, firstname: 'Nora' });
    residents[language] = { email, password: PASSWORD };
  }
  const { channels, quiet_hours } = await signedIn(DEMO.customer)<NotificationPreferencesAnswer>(
    'GET',
    '/notifications/preferences',
  );
  customerBefore = { channels, quiet_hours };
});
afterAll(async () => {
  await signedIn(DEMO.customer)('PUT', '/notifications/preferences', customerBefore);
  await browser?.close();
});

const preferencesOf = (api: Api) => api<NotificationPreferencesAnswer>('GET', '/notifications/preferences');

/** The card: the settings page's section under its heading. */
const cardOf = (page: Page, texts: Texts) =>
  page.locator('section').filter({ has: page.getByRole('heading', { level: 2, name: texts.title }) });

/** The card's controls, each found by its accessible name: what a screen reader announces. */
function controlsOf(card: Locator, texts: Texts) {
  const critical = card.getByRole('group', { name: texts.critical });
  const other = card.getByRole('group', { name: texts.other });
  return {
    critical,
    criticalPush: critical.getByRole('combobox', { name: texts.push }),
    criticalEmail: critical.getByRole('combobox', { name: texts.email }),
    otherPush: other.getByRole('combobox', { name: texts.push }),
    otherEmail: other.getByRole('combobox', { name: texts.email }),
    quiet: card.getByRole('checkbox', { name: texts.quiet }),
    from: card.getByLabel(texts.from, { exact: true }),
    until: card.getByLabel(texts.until, { exact: true }),
    save: card.getByRole('button', { name: texts.save }),
  };
}

/** The option a select shows, as the person reads it. */
const shownChoice = (select: Locator) =>
  select.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.text);

/** The focused control as a screen reader names it: "group / label". */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLInputElement | null;
    const legend = element?.closest('fieldset')?.querySelector('legend')?.textContent ?? '';
    const label = element?.labels?.[0]?.textContent ?? element?.textContent ?? '';
    return `${legend} / ${label}`.trim();
  });

/** Each control Tab stops on, from the focused one, until `last` is reached (at most 20 presses). */
async function tabStops(page: Page, last: string): Promise<string[]> {
  const stops = [await focused(page)];
  for (let i = 0; i < 20 && stops.at(-1) !== last; i++) {
    await page.keyboard.press('Tab');
    const stop = await focused(page);
    // A time input's hours, minutes (and AM/PM) are Tab stops of one control.
    if (stops.at(-1) !== stop) stops.push(stop);
  }
  return stops;
}

async function shoot(card: Locator, page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    expect(await sidewaysScrolls(page), `${name} at ${width} px`).toEqual([]);
    if (!SHOTS) continue;
    // The whole card as the page lays it out, clear of the sticky header an element's shot scrolls under.
    const box = await card.evaluate((e) => {
      const { x, y, width, height } = e.getBoundingClientRect();
      return { x, y: y + window.scrollY, width, height };
    });
    await page.screenshot({ path: `${SHOTS}/notify-${name}-${width}.png`, fullPage: true, clip: box });
  }
}

const personOf = (who: 'resident' | 'customer manager', language: Language): Person =>
  who === 'resident' ? residents[language]! : { email: DEMO.customer, password: DEMO.password };

describe.each(['en', 'fr'] as const)('"How you are told" in %s', (language) => {
  const texts = TEXTS[language];

  it.each(['resident', 'customer manager'] as const)(
    'as a %s: the defaults, a choice saved and kept, critical alerts waiting on every channel refused',
    async (who) => {
      const person = personOf(who, language);
      const name = who.replace(' ', '-');
      const api = signedIn(person.email, person.password);
      // The demo customer manager starts from the defaults, whatever an earlier run left.
      if (person.email === DEMO.customer) await api('PUT', '/notifications/preferences', DEFAULTS);
      const { context, page } = await newPage(browser);
      try {
        await signIn(page, person.email, person.password);
        if (language === 'fr') await page.getByRole('button', { name: /^(Français|French), FR$/ }).click();
        await page.goto('/settings');
        const card = cardOf(page, texts);
        const controls = controlsOf(card, texts);
        await controls.criticalPush.waitFor();

        // The defaults: critical alerts pushed and emailed at once, the others emailed, no quiet hours.
        expect(await shownChoice(controls.criticalPush)).toBe(texts.now);
        expect(await shownChoice(controls.criticalEmail)).toBe(texts.now);
        expect(await shownChoice(controls.otherPush)).toBe(texts.off);
        expect(await shownChoice(controls.otherEmail)).toBe(texts.now);
        expect(await controls.quiet.isChecked()).toBe(false);
        expect(await controls.from.count()).toBe(0);
        // Only critical alerts may wait to be opened.
        expect(await controls.criticalEmail.locator('option:not([hidden])').allTextContents()).toEqual([
          texts.now,
          texts.unopened,
          texts.off,
        ]);
        expect(await controls.otherEmail.locator('option:not([hidden])').allTextContents()).toEqual([
          texts.now,
          texts.off,
        ]);
        await expectAccessible(page, `the settings page, as a ${who}, ${language}`);
        await shoot(card, page, `${name}-${language}-defaults`);

        // By keyboard: each select, then the checkbox (Space ticks it), the hours it shows, the button.
        await controls.criticalPush.focus();
        const quietLabel = (await controls.quiet.evaluate(
          (e: HTMLInputElement) => e.labels?.[0]?.textContent,
        ))!;
        const before = await tabStops(page, `${texts.quiet_title} / ${quietLabel}`);
        await page.keyboard.press('Space');
        expect(await controls.quiet.isChecked()).toBe(true);
        const after = await tabStops(page, `/ ${texts.save}`);
        expect([...before, ...after.slice(1)]).toEqual([
          `${texts.critical} / ${texts.push}`,
          `${texts.critical} / ${texts.email}`,
          `${texts.other} / ${texts.push}`,
          `${texts.other} / ${texts.email}`,
          `${texts.quiet_title} / ${quietLabel}`,
          `${texts.quiet_title} / ${texts.from}`,
          `${texts.quiet_title} / ${texts.until}`,
          `/ ${texts.save}`,
        ]);

        // Email only if a critical alert is not opened within 10 minutes; quiet hours 22:00 to 07:00.
        await controls.criticalEmail.selectOption({ label: texts.unopened });
        await controls.from.fill('22:00');
        await controls.until.fill('07:00');
        await expectAccessible(page, `the card with quiet hours, as a ${who}, ${language}`);
        await shoot(card, page, `${name}-${language}-chosen`);
        await controls.save.click();
        await seen(page, texts.saved);
        const chosen = {
          channels: { critical: { push: 'now', email: 'unopened' }, other: { push: 'off', email: 'now' } },
          quiet_hours: { start: '22:00', end: '07:00', time_zone: expect.any(String) },
        };
        expect(await preferencesOf(api)).toMatchObject(chosen);

        await page.reload();
        await controls.criticalPush.waitFor();
        expect(await shownChoice(controls.criticalEmail)).toBe(texts.unopened);
        expect(await shownChoice(controls.criticalPush)).toBe(texts.now);
        expect(await controls.quiet.isChecked()).toBe(true);
        expect(await controls.from.inputValue()).toBe('22:00');
        expect(await controls.until.inputValue()).toBe('07:00');

        // Both critical channels "if not opened": the server refuses, under "Critical alerts".
        await controls.criticalPush.selectOption({ label: texts.unopened });
        await controls.save.click();
        const refusal = controls.critical.getByRole('alert');
        await refusal.waitFor();
        expect(await refusal.textContent()).toMatch(texts.refused);
        // The person is taken to the first critical channel, the group saying what is wrong with it:
        // on a phone the button is a screen below the refusal.
        expect(await focused(page)).toBe(`${texts.critical} / ${texts.push}`);
        expect(
          await controls.critical.evaluate(
            (group) => document.getElementById(group.getAttribute('aria-describedby') ?? '')?.textContent,
          ),
        ).toMatch(texts.refused);
        expect(await preferencesOf(api)).toMatchObject(chosen);
        await expectAccessible(page, `the card refusing, as a ${who}, ${language}`);
        await shoot(card, page, `${name}-${language}-refused`);
      } finally {
        if (language === 'fr') {
          await page.getByRole('button', { name: /^(English|Anglais), EN$/ }).click();
          await expect
            .poll(async () => (await api<{ language: string }>('GET', '/users/me')).language)
            .toBe('en');
        }
        await context.close();
      }
    },
  );
});
