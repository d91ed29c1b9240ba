import { translate, type Language, type MessageKey } from '@flowbox/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildingBody,
  createWorldApp,
  loginAs,
  planBody as acceptedPlanBody,
  scheduleBody,
  zoneBody,
  type ApiClient,
  type TestApp,
  type World,
} from '../test/harness.ts';

/*
 * Every date the API takes lies in the supported span 2000-01-01..2099-12-31 (docs/reliability.md
 * "Dates: the supported span"): a date outside it is refused at the edge with the catalogue's
 * message, in the caller's language, before any date maths runs (issue #20 item 2: year 0 and
 * year 9999 made 500s, a 6-second blocked event loop, and an export that never ended).
 */

let t: TestApp;
let w: World;
let provider: ApiClient;
let cmA: ApiClient;
let cmFr: ApiClient;
let B = '';
let Z = '';
let planId = '';

beforeAll(async () => {
  ({ t, w, provider, cmA } = await createWorldApp());
  cmFr = await loginAs(t.app, 'cm.a@test.io', 'fr');
  const site = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
  const building = await provider.post(`${site}/buildings/create`, buildingBody());
  B = `${site}/buildings/${building.json().id}`;
  const zone = await provider.post(`${B}/zones/create`, zoneBody({ scheduled_closing_authorised: true }));
  Z = `${B}/zones/${zone.json().id}`;
  planId = (await provider.post('/v1/pricing_plans/create', planBody())).json().id;
});
afterAll(() => t.close());

/** The harness's plan, under a name of its own each time. */
const planBody = (overrides: Record<string, unknown> = {}) =>
  acceptedPlanBody({ name: `Plan ${Math.random()}`, ...overrides });

const exports = () => [
  `${Z}/consumption/export.csv`,
  `${B}/consumption/export.csv`,
  `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}/consumption/export.csv`,
  `/v1/customers/${w.customers.a.id}/consumption/export.csv`,
];
const listings = () => [
  `/v1/customers/${w.customers.a.id}/events`,
  `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}/events`,
  `${B}/events`,
  `${Z}/events`,
  '/v1/alerts/list',
];

/** A 400 whose details are `message` on each of `paths`, in both languages, answered within a second. */
async function expectRefused(
  call: (client: ApiClient) => Promise<{ statusCode: number; body: string; json: () => unknown }>,
  paths: string | string[],
  key: MessageKey,
) {
  for (const [client, language] of [
    [cmA, 'en'],
    [cmFr, 'fr'],
  ] as [ApiClient, Language][]) {
    const started = Date.now();
    const res = await call(client);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(res.statusCode, res.body).toBe(400);
    expect((res.json() as { details: unknown[] }).details).toEqual(
      [paths].flat().map((path) => ({ path, message: translate(key, language) })),
    );
  }
}

describe('the supported span at the API edge', () => {
  it('says the span in both languages', () => {
    expect(translate('validation.date_span', 'en')).toBe(
      'Please enter a date between 01/01/2000 and 12/31/2099',
    );
    expect(translate('validation.date_span', 'fr')).toBe(
      'Veuillez saisir une date entre le 01/01/2000 et le 31/12/2099',
    );
  });

  it.each([
    ['from=0000-01-01&to=0000-01-01', ['from', 'to']],
    ['from=1999-12-31&to=2000-01-05', 'from'],
    ['from=2099-12-01&to=2100-01-01', 'to'],
    ['from=9999-12-29&to=9999-12-30', ['from', 'to']],
    ['from=9999-12-31&to=9999-12-31', ['from', 'to']],
  ])('exports refuse %s, on every scope', async (query, path) => {
    for (const url of exports())
      await expectRefused((c) => c.get(`${url}?${query}`), path, 'validation.date_span');
  });

  it('exports answer at both ends of the span, and refuse more than five years', async () => {
    for (const url of exports()) {
      for (const query of ['from=2000-01-01&to=2000-01-01', 'from=2099-12-31&to=2099-12-31']) {
        const res = await cmA.get(`${url}?${query}`);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/csv/);
      }
    }
    const longest = await cmA.get(`${exports()[0]}?from=2094-12-28&to=2099-12-31`);
    expect(longest.statusCode, longest.body).toBe(200);
    expect(longest.body.trim().split('\n')).toHaveLength(1831);
    await expectRefused(
      (c) => c.get(`${exports()[0]}?from=2094-12-27&to=2099-12-31`),
      'to',
      'validation.export_too_long',
    );
  });

  it.each([
    ['from=0000-01-01', 'from'],
    ['to=9999-12-31', 'to'],
    ['from=1999-12-31', 'from'],
    ['to=2100-01-01', 'to'],
  ])('the event and alert listings refuse %s', async (query, path) => {
    for (const url of listings())
      await expectRefused((c) => c.get(`${url}?${query}`), path, 'validation.date_span');
  });

  it('the event and alert listings answer at both ends of the span, and refuse a reversed range', async () => {
    for (const url of listings()) {
      const res = await cmA.get(`${url}?from=2000-01-01&to=2099-12-31`);
      expect(res.statusCode, res.body).toBe(200);
      await expectRefused(
        (c) => c.get(`${url}?from=2026-05-02&to=2026-05-01`),
        'to',
        'validation.end_after_start',
      );
    }
  });

  it.each([
    [{ date_start: '0000-01-01' }, 'date_start'],
    [{ date_start: '0001-01-01' }, 'date_start'],
    [{ date_start: '9999-12-30', date_end: '9999-12-31' }, ['date_start', 'date_end']],
    [{ date_end: '2100-01-01' }, 'date_end'],
  ])('a schedule with %j is refused', async (dates, path) => {
    await expectRefused(
      (c) => c.post(`${Z}/schedules/create`, scheduleBody(dates)),
      path,
      'validation.date_span',
    );
  });

  it('a schedule may run to the last day of the span', async () => {
    const res = await cmA.post(`${Z}/schedules/create`, scheduleBody({ date_end: '2099-12-31' }));
    expect(res.statusCode, res.body).toBe(201);
    expect((await cmA.get(`${Z}/schedules/occurrences`)).statusCode).toBe(200);
  });

  it('pricing plans and customers refuse a date outside the span', async () => {
    for (const [language, client] of [
      ['en', await loginAs(t.app, 'provider@test.io', 'en')],
      ['fr', await loginAs(t.app, 'provider@test.io', 'fr')],
    ] as [Language, ApiClient][]) {
      const detail = (path: string) => [{ path, message: translate('validation.date_span', language) }];
      const created = await client.post('/v1/pricing_plans/create', planBody({ from_date: '0000-01-01' }));
      expect(created.statusCode, created.body).toBe(400);
      expect(created.json().details).toEqual(detail('from_date'));
      const updated = await client.put(`/v1/pricing_plans/${planId}/update`, {
        new_price: true,
        from_date: '9999-12-31',
      });
      expect(updated.statusCode, updated.body).toBe(400);
      expect(updated.json().details).toEqual(detail('from_date'));
      const customer = await client.post('/v1/customers/create', {
        name: 'Year zero',
        subscription_date: '0000-01-01',
      });
      expect(customer.statusCode, customer.body).toBe(400);
      expect(customer.json().details).toEqual(detail('subscription_date'));
    }
  });
});
