import { addDays, ROLES, startOfLocalDay, type LeakAnalytics, type PriceRange } from '@flowbox/shared';
import { and, eq } from 'drizzle-orm';
import { StandardFonts, PDFDocument } from 'pdf-lib';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alerts,
  consumptionDaily,
  consumptionHourly,
  emails,
  events,
  reports,
  zoneSubscriptions,
} from '../db/schema.ts';
import { recordEvent } from '../events/index.ts';
import {
  buildingBody,
  createSecondInstance,
  createUser,
  createWorldApp,
  loginAs,
  zoneBody,
  type ApiClient,
  type TestApp,
  type World,
} from '../test/harness.ts';
import { nextDueAt, periodEndingAt } from './periods.ts';
import { winAnsi } from './report-pdf.ts';

/*
 * Scheduled reports (issue 33, docs/reports.md): a site's week, whose figures are the consumption
 * API's for the same days, its CSV and its PDF read back as text in English and French, the job
 * making each period's report once with two instances on one database, and the emails it queues.
 */

let t: TestApp;
let w: World;
let provider: ApiClient;
let cmA: ApiClient;
let smA: ApiClient;
let cmAFr: ApiClient;
let z1: string;
let z2: string;
let buildingId: string;
const emailOf = new Map<ApiClient, string>();

const siteUrl = () => `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
const customerUrl = () => `/v1/customers/${w.customers.a.id}`;

const TIERS: PriceRange[] = [
  { volume_start: '0', volume_end: '10', price_per_unit: '1.5' },
  { volume_start: '10', volume_end: null, price_per_unit: '2' },
];

async function setNow(iso: string): Promise<void> {
  t.clock.advance(Date.parse(iso) - t.clock.now().getTime());
  await Promise.all([...emailOf].map(([client, email]) => client.login(email)));
}

async function daily(zoneId: string, day: string, volumeMl: number) {
  await t.db
    .insert(consumptionDaily)
    .values({ zoneId, day, flowboxId: crypto.randomUUID(), volumeMl, flowS: 60, readings: 1 });
}

const HOUR_MS = 3_600_000;
const KITCHEN_FLOWBOX = crypto.randomUUID();

/** Kitchen's water in each of these local hours (0–23) of a Paris day, at `lph` litres an hour. */
async function hourly(day: string, hours: readonly number[], lph: number) {
  const start = startOfLocalDay(day, 'Europe/Paris').getTime();
  await t.db.insert(consumptionHourly).values(
    hours.map((h) => ({
      zoneId: z1,
      hour: new Date(start + h * HOUR_MS),
      flowboxId: KITCHEN_FLOWBOX,
      volumeMl: lph * 1000,
      flowS: lph > 0 ? 3600 : 0,
      readings: 1,
    })),
  );
}
const ALL_DAY = Array.from({ length: 24 }, (_, h) => h);
const NIGHT = [0, 1, 2, 3, 4];

async function pdfText(bytes: Buffer): Promise<string> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(pdf, { mergePages: true });
  return text;
}

/** The cells of a CSV line (the report's cells hold no quote nor comma). */
const cells = (csv: string, first: string) =>
  csv
    .split('\r\n')
    .find((line) => line.startsWith(first))
    ?.split(',');

beforeAll(async () => {
  ({ t, w, provider, cmA, smA } = await createWorldApp());
  cmAFr = await loginAs(t.app, 'cm.a@test.io', 'fr');
  emailOf.set(provider, 'provider@test.io').set(cmA, 'cm.a@test.io').set(smA, 'sm.a@test.io');
  emailOf.set(cmAFr, 'cm.a@test.io');
  // Sunday 29 November 2026, 21:00 in Paris: the week window is the report's week, Monday 23 to today.
  await setNow('2026-11-29T20:00:00Z');
  const building = await cmA.post(`${siteUrl()}/buildings/create`, buildingBody({ name: 'Tower' }));
  expect(building.statusCode, building.body).toBe(201);
  buildingId = building.json().id;
  const buildingUrl = `${siteUrl()}/buildings/${buildingId}`;
  z1 = (await cmA.post(`${buildingUrl}/zones/create`, zoneBody({ name: 'Kitchen' }))).json().id;
  z2 = (await cmA.post(`${buildingUrl}/zones/create`, zoneBody({ name: 'Pool' }))).json().id;
  const plan = await provider.post('/v1/pricing_plans/create', {
    name: 'Tiered',
    regions: ['FR'],
    billing_type: 'monthly',
    acquisition_type: 'pay_as_you_go_fee',
    currency: 'EUR',
    volume_unit: 'm3',
    from_date: '2025-01-01',
    ranges: TIERS,
  });
  expect(plan.statusCode, plan.body).toBe(201);
  await t.db.insert(zoneSubscriptions).values({
    zoneId: z1,
    planId: plan.json().id,
    serviceLevel: 'premium',
    startDate: '2026-11-01',
    renewalDate: '2026-12-01',
  });
  // Kitchen: 9 m3 before the week (first tier), then 2.5 (crossing into the second), 600 and 1.234.
  await daily(z1, '2026-11-01', 9_000_000);
  await daily(z1, '2026-11-24', 2_500_000);
  await daily(z1, '2026-11-26', 600_000_000);
  await daily(z1, '2026-11-28', 1_234_000);
  // Pool: no subscription, 1,234.5 m3; and a day after the week, which no report of it counts.
  await daily(z2, '2026-11-25', 1_234_500_000);
  await daily(z2, '2026-11-30', 7_000_000);
  const inWeek = new Date('2026-11-25T12:00:00Z');
  const place = { customerId: w.customers.a.id, siteId: w.sites.a1.id, buildingId: building.json().id };
  await t.db.insert(alerts).values([
    {
      ...place,
      zoneId: z1,
      category: 'leakage_detection',
      cause: 'c1',
      state: 'resolved',
      openedAt: inWeek,
      lastSeenAt: inWeek,
    },
    {
      ...place,
      zoneId: z1,
      category: 'leakage_detection',
      cause: 'c2',
      state: 'open',
      openedAt: inWeek,
      lastSeenAt: inWeek,
    },
    {
      ...place,
      zoneId: z2,
      category: 'maintenance',
      cause: 'c3',
      state: 'open',
      openedAt: new Date('2026-11-20T12:00:00Z'),
      lastSeenAt: inWeek,
    },
  ]);
  const closing = (action: 'valve_closed' | 'automatic_closing_triggered', at: Date) =>
    recordEvent(t.db, at, {
      action,
      object: 'zone',
      objectId: z1,
      objectLabel: 'Kitchen',
      scope: { ...place, zoneId: z1 },
      by: null,
      origin: 'system',
    });
  await closing('valve_closed', inWeek);
  await closing('valve_closed', inWeek);
  await closing('automatic_closing_triggered', inWeek);
  await closing('valve_closed', new Date('2026-12-01T12:00:00Z'));
  // Kitchen's hours (docs/reports.md "Continuous flow and night flow"): a day of continuous flow
  // before the week (19th) and one in it (25th); low nights before the week; the week's nights at
  // 12.5 to 30 L/h; a flowing day after it. Noon at zero on the other days: no flow runs 24 h there.
  await hourly('2026-11-19', ALL_DAY, 40);
  for (const day of ['2026-11-20', '2026-11-21', '2026-11-22']) {
    await hourly(day, NIGHT, 1);
    await hourly(day, [12], 0);
  }
  const weekNights: [string, number][] = [
    ['2026-11-23', 12.5],
    ['2026-11-24', 14],
    ['2026-11-26', 12.5],
    ['2026-11-27', 20],
    ['2026-11-28', 30],
    ['2026-11-29', 15],
  ];
  for (const [day, lph] of weekNights) {
    await hourly(day, NIGHT, lph);
    await hourly(day, [12], 0);
  }
  await hourly('2026-11-25', ALL_DAY, 13);
  await hourly('2026-11-30', ALL_DAY, 50);
});
afterAll(() => t.close());

describe('periods (docs/reports.md "When")', () => {
  it('weekly: due Monday 00:00 in the scope’s time zone, covering Monday to Sunday', () => {
    const due = nextDueAt('weekly', new Date('2026-11-29T20:00:00Z'), 'Europe/Paris');
    expect(due.toISOString()).toBe('2026-11-29T23:00:00.000Z');
    expect(periodEndingAt('weekly', due, 'Europe/Paris')).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    // A Monday just after midnight: the week that started then.
    expect(nextDueAt('weekly', due, 'Europe/Paris').toISOString()).toBe('2026-12-06T23:00:00.000Z');
  });

  it('monthly: due on the 1st 00:00, covering the calendar month, clock changes included', () => {
    const due = nextDueAt('monthly', new Date('2026-03-15T12:00:00Z'), 'Europe/Paris');
    expect(due.toISOString()).toBe('2026-03-31T22:00:00.000Z');
    expect(periodEndingAt('monthly', due, 'Europe/Paris')).toEqual({ from: '2026-03-01', to: '2026-03-31' });
    expect(nextDueAt('monthly', new Date('2026-12-20T00:00:00Z'), 'Asia/Kolkata').toISOString()).toBe(
      '2026-12-31T18:30:00.000Z',
    );
  });
});

describe('PDF text outside WinAnsi (the standard fonts’ encoding)', () => {
  it('replaces what the font cannot draw, keeping French accents and the euro sign', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const drawable = new Set(font.getCharacterSet());
    expect(winAnsi('≥ 1\u202f234,50\u00a0€ → Bâtiment 漢', drawable)).toBe('>= 1 234,50 € -> Bâtiment ?');
    const page = doc.addPage();
    expect(() => page.drawText('1\u202f234', { font })).toThrow();
    expect(() => page.drawText(winAnsi('1\u202f234 ≥ →', drawable), { font })).not.toThrow();
  });
});

describe('a weekly report of a site, made by the job', () => {
  let scheduleId: string;

  it('is scheduled for Monday 00:00 Paris time, with recipients who read the site', async () => {
    const recipients = await cmA.get(`${siteUrl()}/report_schedules/recipients`);
    expect(recipients.statusCode, recipients.body).toBe(200);
    const names = recipients.json().items.map((r: { name: string }) => r.name);
    // The customer's customer manager and the site's manager; not customer B's, not the provider.
    expect(names).toEqual(['Cara Amanager', 'Sam Asite']);
    const created = await cmA.post(`${siteUrl()}/report_schedules/create`, {
      name: 'Weekly ≥ A1 → all',
      frequency: 'weekly',
      formats: ['pdf', 'csv'],
      language: 'en',
      recipient_ids: [w.users.cmA.id, w.users.smA.id],
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      site_id: w.sites.a1.id,
      formats: ['csv', 'pdf'],
      enabled: true,
      next_due_at: '2026-11-29T23:00:00.000Z',
      recipients: [
        { id: w.users.cmA.id, name: 'Cara Amanager' },
        { id: w.users.smA.id, name: 'Sam Asite' },
      ],
    });
    scheduleId = created.json().id;
    const logged = await t.db
      .select()
      .from(events)
      .where(and(eq(events.objectId, scheduleId), eq(events.actionName, 'created')));
    expect(logged).toMatchObject([
      { objectName: 'report_schedule', userName: 'Cara Amanager', siteId: w.sites.a1.id },
    ]);
  });

  it('refuses a recipient who does not read the site (another customer’s, a site manager of another site)', async () => {
    const other = await createUser(t.db, {
      email: 'sm.a2.reports@test.io',
      role: ROLES.site_manager,
      customerId: w.customers.a.id,
      siteIds: [w.sites.a2.id],
    });
    for (const id of [w.users.cmB.id, other.id, w.users.provider.id]) {
      const res = await cmA.post(`${siteUrl()}/report_schedules/create`, {
        name: 'Refused',
        frequency: 'monthly',
        formats: ['csv'],
        language: 'en',
        recipient_ids: [id],
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().code).toBe('errors.invalid_report_recipients');
    }
  });

  it('makes the week’s report once, with two instances passing at once, and tells the recipients', async () => {
    const second = await createSecondInstance(t);
    try {
      expect(await t.services.reports.runDue()).toBe(0);
      await setNow('2026-11-29T23:00:30Z');
      const claimed = await Promise.all([t.services.reports.runDue(), second.services.reports.runDue()]);
      expect(claimed.sort()).toEqual([0, 1]);
      expect(await Promise.all([t.services.reports.runDue(), second.services.reports.runDue()])).toEqual([
        0, 0,
      ]);
    } finally {
      await second.close();
    }
    const made = await t.db.select().from(reports).where(eq(reports.scheduleId, scheduleId));
    expect(made.map((r) => [r.periodFrom, r.periodTo])).toEqual([['2026-11-23', '2026-11-29']]);
    const info = await cmA.get(`${siteUrl()}/report_schedules/${scheduleId}/info`);
    expect(info.json().next_due_at).toBe('2026-12-06T23:00:00.000Z');
    const mails = await t.db.select().from(emails).where(eq(emails.kind, 'report'));
    expect(mails.map((m) => m.to).sort()).toEqual(['cm.a@test.io', 'sm.a@test.io']);
    expect(mails[0]!.subject).toContain('Weekly report "Weekly ≥ A1 → all"');
    expect(mails[0]!.text).toContain(
      `http://flowbox.test/customers/${w.customers.a.id}/sites/${w.sites.a1.id}/reports`,
    );
  });

  it('says the consumption API’s figures for the same days, as CSV', async () => {
    await setNow('2026-11-29T20:00:00Z');
    const series = await cmA.get(`${siteUrl()}/consumption?window=week`);
    expect(series.statusCode, series.body).toBe(200);
    const exported = await cmA.get(`${siteUrl()}/consumption/export.csv?from=2026-11-23&to=2026-11-29`);
    await setNow('2026-11-30T08:00:00Z');
    const list = await smA.get(`${siteUrl()}/reports/list`);
    expect(list.statusCode, list.body).toBe(200);
    const [report] = list.json().items;
    expect(report).toMatchObject({ schedule_id: scheduleId, formats: ['csv', 'pdf'], created_by: null });
    const csv = await smA.get(`${siteUrl()}/reports/${report.id}/report.csv`);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(
      'attachment; filename="report-2026-11-23_2026-11-29.csv"',
    );
    const total = cells(csv.body, 'Total')!;
    expect(total.slice(3)).toEqual([series.json().total.volume, 'm3', series.json().total.cost, 'EUR']);
    expect(series.json().total).toMatchObject({ volume: '1838.234', cost: '1206.97' });
    // Each zone's volume is the sum of its days in the consumption export of the same days.
    const exportLines = exported.body
      .split('\r\n')
      .slice(1, -1)
      .map((line: string) => line.split(','));
    for (const zone of ['Kitchen', 'Pool']) {
      const days = exportLines.filter((line: string[]) => line[5] === zone);
      expect(days).toHaveLength(7);
      const litres = days.reduce(
        (sum: number, line: string[]) => sum + Math.round(Number(line[6]) * 1000),
        0,
      );
      expect(Number(cells(csv.body, `A site 1,Tower,${zone}`)![3]) * 1000).toBeCloseTo(litres, 6);
    }
    expect(cells(csv.body, 'A site 1,Tower,Kitchen')).toEqual([
      'A site 1',
      'Tower',
      'Kitchen',
      '603.734',
      'm3',
      '1206.97',
      'EUR',
    ]);
    expect(cells(csv.body, 'A site 1,Tower,Pool')).toEqual([
      'A site 1',
      'Tower',
      'Pool',
      '1234.500',
      'm3',
      '',
      '',
    ]);
    // Cost per tier: 9 → 10 m3 in the first (1 m3 at 1.5), the rest in the second; they add up to the total.
    expect(cells(csv.body, '2025-01-01,0,')).toEqual([
      '2025-01-01',
      '0',
      '10',
      '1.5',
      '1.000',
      'm3',
      '1.50',
      'EUR',
    ]);
    expect(cells(csv.body, '2025-01-01,10,')).toEqual([
      '2025-01-01',
      '10',
      '',
      '2',
      '602.734',
      'm3',
      '1205.47',
      'EUR',
    ]);
    // Alerts opened in the week (not the maintenance one of the week before), closings, leaks.
    expect(cells(csv.body, 'Leak detected')).toEqual(['Leak detected', '2', '1']);
    expect(csv.body).not.toContain('Maintenance');
    expect(cells(csv.body, 'Valve closed (command or device)')).toEqual([
      'Valve closed (command or device)',
      '2',
    ]);
    expect(cells(csv.body, 'Automatic closing')).toEqual(['Automatic closing', '1']);
    // The week's leak figures alone (the next describe compares them with the leaks API).
    expect(cells(csv.body, 'A site 1,Tower,Kitchen,1')).toEqual([
      'A site 1',
      'Tower',
      'Kitchen',
      '1',
      '12.5',
      '5.0',
      '7',
    ]);
  });

  it('as PDF, drawn without a browser: its text in English, the name’s ≥ and → replaced', async () => {
    const [report] = (await cmA.get(`${siteUrl()}/reports/list`)).json().items;
    const pdf = await cmA.get(`${siteUrl()}/reports/${report.id}/report.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(pdf.rawPayload);
    for (const expected of [
      'Water report – Weekly >= A1 -> all',
      'Period: 11/23/2026 – 11/29/2026',
      'Consumption and cost',
      '1,838.234',
      '€1,206.97',
      '603.734',
      'not billed',
      'Cost per price tier',
      '10 m3 and more',
      '€1,205.47',
      'Leak detected',
      'Automatic closing',
      '12.5',
    ])
      expect(text).toContain(expected);
  });
});

describe('a report generated now, in French', () => {
  it('makes a chosen period’s report at once, logged, its PDF with French numbers and dates', async () => {
    const res = await cmAFr.post(`${siteUrl()}/reports/generate`, {
      from: '2026-11-23',
      to: '2026-11-29',
      language: 'fr',
      formats: ['pdf'],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      schedule_id: null,
      formats: ['pdf'],
      created_by: 'Cara Amanager',
      language: 'fr',
    });
    const id = res.json().id;
    expect((await cmAFr.get(`${siteUrl()}/reports/${id}/report.csv`)).statusCode).toBe(404);
    const text = await pdfText((await cmAFr.get(`${siteUrl()}/reports/${id}/report.pdf`)).rawPayload);
    for (const expected of [
      'Rapport eau',
      'Période: 23/11/2026 – 29/11/2026',
      'Consommation et coût',
      'Bâtiment',
      // Intl's French group separator (a narrow no-break space) drawn as a space.
      '1 838,234',
      '1 206,97 €',
      '603,734',
      'non facturé',
      'Coût par tranche de prix',
      '0 – 10 m3',
      '1 205,47 €',
      'Fuite détectée',
      'Fermeture automatique',
      '12,5',
    ])
      expect(text).toContain(expected);
    const logged = await t.db.select().from(events).where(eq(events.objectId, id));
    expect(logged).toMatchObject([{ objectName: 'report', actionName: 'created', origin: 'web' }]);
  });

  it('keeps a customer’s report to the customer’s managers, over all its sites', async () => {
    const res = await cmA.post(`${customerUrl()}/reports/generate`, {
      from: '2026-11-23',
      to: '2026-11-29',
      language: 'en',
      formats: ['csv'],
    });
    expect(res.statusCode, res.body).toBe(201);
    const csv = await cmA.get(`${customerUrl()}/reports/${res.json().id}/report.csv`);
    expect(csv.body).toContain('Water report,Customer A,All sites');
    expect(cells(csv.body, 'Total')!.slice(3, 5)).toEqual(['1838.234', 'm3']);
    expect((await smA.get(`${customerUrl()}/reports/list`)).statusCode).toBe(403);
    // The site's list does not show the customer's reports.
    const siteList = (await cmA.get(`${siteUrl()}/reports/list`)).json().items;
    expect(siteList.some((r: { id: string }) => r.id === res.json().id)).toBe(false);
  });

  it('refuses a period longer than a year, in the caller’s language', async () => {
    const res = await cmAFr.post(`${siteUrl()}/reports/generate`, {
      from: '2025-01-01',
      to: '2026-01-02',
      language: 'fr',
      formats: ['csv'],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ path: 'to', message: 'Un rapport couvre au plus un an' }]);
  });
});

describe('schedules: edit and delete', () => {
  it('changes a schedule, then deletes it with its name typed, its reports with it', async () => {
    const created = await cmA.post(`${siteUrl()}/report_schedules/create`, {
      name: 'Monthly',
      frequency: 'monthly',
      formats: ['csv'],
      language: 'fr',
      recipient_ids: [],
    });
    expect(created.json().next_due_at).toBe('2026-11-30T23:00:00.000Z');
    const url = `${siteUrl()}/report_schedules/${created.json().id}`;
    const updated = await cmA.put(`${url}/update`, {
      name: 'Monthly all',
      frequency: 'weekly',
      formats: ['pdf'],
      language: 'fr',
      recipient_ids: [w.users.smA.id],
      enabled: false,
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ name: 'Monthly all', frequency: 'weekly', enabled: false });
    const wrong = await cmA.delete(`${url}/delete`, { confirm_name: 'Monthly' });
    expect(wrong.json().code).toBe('errors.names_mismatch');
    expect((await cmA.delete(`${url}/delete`, { confirm_name: 'Monthly all' })).statusCode).toBe(204);
    expect((await cmA.get(`${url}/info`)).statusCode).toBe(404);
    const lines = await t.db.select().from(events).where(eq(events.objectId, created.json().id));
    expect(lines.map((e) => e.actionName).sort()).toEqual(['created', 'deleted', 'updated']);
  });
});

describe('a report’s leak figures are its period’s (docs/reports.md "Continuous flow and night flow")', () => {
  /** The leaks API's answer for Kitchen, its analytics computed at `iso` as after a batch of readings. */
  async function leaksAt(iso: string): Promise<LeakAnalytics> {
    await setNow(iso);
    await t.services.leakUpkeep.refresh([z1]);
    const res = await cmA.get(`${siteUrl()}/buildings/${buildingId}/zones/${z1}/leaks`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<LeakAnalytics>();
  }

  /** Kitchen's line of a CSV's leak section. */
  const kitchenLeaks = (csv: string) => {
    const lines = csv.split('\r\n');
    const section = lines.indexOf('Continuous flow and night flow');
    return lines
      .slice(section)
      .find((line) => line.startsWith('A site 1,Tower,Kitchen,'))
      ?.split(',');
  };

  it('counts the week’s continuous-flow days and nights only, as the leaks API answers them over the same days', async () => {
    const week = { from: '2026-11-23', to: '2026-11-29' };
    const start = startOfLocalDay(week.from, 'Europe/Paris');
    const end = startOfLocalDay(addDays(week.to, 1), 'Europe/Paris');
    // The API counts continuous-flow days over the last 31 days: at the week's start the 19th's
    // leak, at its end the 25th's too. The week's are the difference.
    const atStart = await leaksAt(new Date(start.getTime() + 30_000).toISOString());
    const atEnd = await leaksAt(new Date(end.getTime() + 30_000).toISOString());
    expect([atStart.continuous_flow_days, atEnd.continuous_flow_days]).toEqual([1, 2]);
    // At the week's end its last 7 nights are the week's.
    const weekNights = atEnd.nights.filter((n) => n.night >= week.from && n.night <= week.to);
    expect(atEnd.night_flow_lph).toBe(12.5);
    const res = await cmA.post(`${siteUrl()}/reports/generate`, {
      ...week,
      language: 'en',
      formats: ['csv'],
    });
    expect(res.statusCode, res.body).toBe(201);
    const csv = await cmA.get(`${siteUrl()}/reports/${res.json().id}/report.csv`);
    expect(kitchenLeaks(csv.body)).toEqual([
      'A site 1',
      'Tower',
      'Kitchen',
      String(atEnd.continuous_flow_days - atStart.continuous_flow_days),
      atEnd.night_flow_lph!.toFixed(1),
      atEnd.allowance_lph.toFixed(1),
      String(weekNights.length),
    ]);
    // The 19th to the 29th: both leaks, and the low nights before the week (1 L/h).
    const wider = await cmA.post(`${siteUrl()}/reports/generate`, {
      from: '2026-11-19',
      to: week.to,
      language: 'en',
      formats: ['csv'],
    });
    const widerCsv = await cmA.get(`${siteUrl()}/reports/${wider.json().id}/report.csv`);
    expect(kitchenLeaks(widerCsv.body)!.slice(3)).toEqual(['2', '1.0', '5.0', '11']);
  });
});
