import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.ts';

/*
 * The OpenAPI document at /v1/docs/json is the contract of the API: it lists every route the app
 * serves under /v1, with its answers. Routes are read from the app itself, so a new route that is
 * hidden from the document fails here.
 */

type Operation = {
  security?: { bearer: string[] }[];
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: object }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>;
};
type Schema = { type?: string; properties?: Record<string, unknown>; required?: string[] };
type OpenApiDocument = {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown> };
};

let t: TestApp;
let doc: OpenApiDocument;

beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ method: 'GET', url: '/v1/docs/json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(() => t.close());

/** The spec §7 calls, and the ones the product adds (logout, outbox, customers and sites, activity log). */
const EXPECTED_ROUTES = [
  'POST /v1/users/token',
  'POST /v1/users/register',
  'POST /v1/users/register/confirm',
  'POST /v1/users/request_reset_password',
  'POST /v1/users/set_password',
  'POST /v1/users/reset_password',
  'POST /v1/users/refresh',
  'GET /v1/users/me',
  // Issue 18: the people screen, across the roles.
  'GET /v1/users/list',
  'PUT /v1/users/update_password',
  'POST /v1/users/logout',
  ...[
    '/v1/flovea_managers',
    '/v1/customers/{customerId}/customer_managers',
    '/v1/customers/{customerId}/site_managers',
    '/v1/customers/{customerId}/end_users',
    '/v1/customers/{customerId}/plumbers',
  ].flatMap((prefix) => [
    `GET ${prefix}/list`,
    `GET ${prefix}/{managerId}/info`,
    `POST ${prefix}/create`,
    `PUT ${prefix}/{managerId}/update`,
    `DELETE ${prefix}/{managerId}/delete`,
  ]),
  'GET /v1/customers/list',
  'GET /v1/customers/{customerId}/info',
  'POST /v1/customers/create',
  'PUT /v1/customers/{customerId}/update',
  'DELETE /v1/customers/{customerId}/delete',
  'GET /v1/customers/{customerId}/sites/list',
  'GET /v1/customers/{customerId}/sites/{siteId}/info',
  'POST /v1/customers/{customerId}/sites/create',
  'PUT /v1/customers/{customerId}/sites/{siteId}/update',
  'DELETE /v1/customers/{customerId}/sites/{siteId}/delete',
  'GET /v1/outbox',
  'GET /v1/health',
  'GET /v1/health/ready',
  'GET /v1/health/live',
  'GET /v1/customers/{customerId}/events',
  'GET /v1/customers/{customerId}/sites/{siteId}/events',
  ...hierarchyRoutes(),
  'PUT /v1/customers/{customerId}/logo',
  'PUT /v1/customers/{customerId}/sites/{siteId}/images/{kind}',
  'PUT /v1/customers/{customerId}/sites/{siteId}/buildings/{buildingId}/images/{kind}',
  'GET /v1/images/{imageId}',
  ...flowboxRoutes(),
  ...plumberRoutes(),
  'GET /v1/live/stream',
  'POST /v1/live/ticket',
  'GET /v1/metrics',
  'GET /v1/customers/{customerId}/zones/list',
  ...billingRoutes(),
  ...scheduleRoutes(),
  ...automationRoutes(),
  ...alertRoutes(),
  'GET /v1/fleet/list',
  'GET /v1/fleet/export.csv',
  ...firmwareUpdateRoutes(),
  ...consumptionRoutes(),
  ...waterBalanceRoutes(),
  ...endUserRoutes(),
  ...webhookRoutes(),
  ...reportRoutes(),
  ...residentRoutes(),
  // Issue 33: Web Push of critical alerts to the caller's browsers (docs/push.md).
  'GET /v1/push/key',
  'GET /v1/push/subscriptions',
  'POST /v1/push/subscriptions',
  'DELETE /v1/push/subscriptions',
  // Issue 33: how each person is told, and the alerts they opened (docs/alerts.md).
  'GET /v1/notifications/preferences',
  'PUT /v1/notifications/preferences',
  'POST /v1/alerts/opened',
].sort();

/** Issue 33: a customer's webhooks and their delivery log (docs/webhooks.md). */
function webhookRoutes(): string[] {
  const webhooks = '/v1/customers/{customerId}/webhooks';
  return [
    `GET ${webhooks}/list`,
    `POST ${webhooks}/create`,
    `GET ${webhooks}/{webhookId}/info`,
    `PUT ${webhooks}/{webhookId}/update`,
    `DELETE ${webhooks}/{webhookId}/delete`,
    `POST ${webhooks}/{webhookId}/rotate_secret`,
    `POST ${webhooks}/{webhookId}/test`,
    `GET ${webhooks}/{webhookId}/deliveries`,
  ];
}

/** Issue 33: scheduled reports of a customer or a site (docs/reports.md). */
function reportRoutes(): string[] {
  return ['/v1/customers/{customerId}', '/v1/customers/{customerId}/sites/{siteId}'].flatMap((scope) => [
    `GET ${scope}/report_schedules/list`,
    `GET ${scope}/report_schedules/recipients`,
    `POST ${scope}/report_schedules/create`,
    `GET ${scope}/report_schedules/{scheduleId}/info`,
    `PUT ${scope}/report_schedules/{scheduleId}/update`,
    `DELETE ${scope}/report_schedules/{scheduleId}/delete`,
    `GET ${scope}/reports/list`,
    `POST ${scope}/reports/generate`,
    `GET ${scope}/reports/{reportId}/report.csv`,
    `GET ${scope}/reports/{reportId}/report.pdf`,
  ]);
}

/**
 * Issue 33: the resident's app (docs/residents.md): "Was this you?", away mode, who turned the water
 * off; and "Snooze 1 h" from a notification (docs/push.md).
 */
function residentRoutes(): string[] {
  const zone = '/v1/customers/{customerId}/sites/{siteId}/buildings/{buildingId}/zones/{zoneId}';
  return [
    'POST /v1/alerts/{alertId}/answer',
    'GET /v1/alerts/answers/summary',
    'POST /v1/alerts/{alertId}/snooze',
    `GET ${zone}/away_mode/info`,
    `PUT ${zone}/away_mode/update`,
    `POST ${zone}/away_mode/clear`,
    `GET ${zone}/water`,
  ];
}

/** docs/permissions.md "Registration": claim codes of a zone, the review of registrations. */
function endUserRoutes(): string[] {
  const zone = '/v1/customers/{customerId}/sites/{siteId}/buildings/{buildingId}/zones/{zoneId}';
  return [
    `GET ${zone}/claim_codes/list`,
    `POST ${zone}/claim_codes/create`,
    `POST ${zone}/claim_codes/{codeId}/revoke`,
    'GET /v1/customers/{customerId}/registrations/list',
    'POST /v1/customers/{customerId}/registrations/{registrationId}/approve',
    'POST /v1/customers/{customerId}/registrations/{registrationId}/refuse',
  ];
}

/** Issue #5: pricing plans (provider managers) and the subscription of each zone. */
function billingRoutes(): string[] {
  const zone = '/v1/customers/{customerId}/sites/{siteId}/buildings/{buildingId}/zones/{zoneId}';
  return [
    'GET /v1/pricing_plans/list',
    'GET /v1/pricing_plans/{pricingPlanId}/info',
    'POST /v1/pricing_plans/create',
    'PUT /v1/pricing_plans/{pricingPlanId}/update',
    'DELETE /v1/pricing_plans/{pricingPlanId}/delete',
    'GET /v1/subscriptions/overview',
    `GET ${zone}/subscription/info`,
    `PUT ${zone}/subscription/update`,
  ];
}

/** Issue #6: consumption of each scope, zones compared, premium details, CSV export, today's figures. */
function consumptionRoutes(): string[] {
  const customer = '/v1/customers/{customerId}';
  const site = `${customer}/sites/{siteId}`;
  const building = `${site}/buildings/{buildingId}`;
  const zone = `${building}/zones/{zoneId}`;
  return [
    ...[zone, building, site, customer].flatMap((scope) => [
      `GET ${scope}/consumption`,
      `GET ${scope}/consumption/export.csv`,
    ]),
    `GET ${building}/consumption/zones`,
    `GET ${site}/consumption/zones`,
    `GET ${zone}/consumption/details`,
    `GET ${zone}/consumption/price_tiers`,
    `GET ${zone}/leaks`,
    `GET ${building}/leaks`,
    'GET /v1/dashboard/today',
  ];
}

/** Issue #29: a building's water balance, main supply against its zones, and its settings. */
function waterBalanceRoutes(): string[] {
  const building = '/v1/customers/{customerId}/sites/{siteId}/buildings/{buildingId}';
  return [`GET ${building}/water_balance`, `PUT ${building}/water_balance/settings`];
}

/** Issue #8: alerts, their lifecycle and the category settings. */
function alertRoutes(): string[] {
  return [
    'GET /v1/alerts/list',
    'GET /v1/alerts/count',
    'GET /v1/alerts/settings/list',
    'PUT /v1/alerts/settings/{category}/update',
    'GET /v1/alerts/{alertId}/info',
    'POST /v1/alerts/{alertId}/silence',
    'POST /v1/alerts/{alertId}/unsilence',
    'POST /v1/alerts/{alertId}/resolve',
  ];
}

/** Issue #17: the firmware catalogue, the devices' download, a flowbox's firmware and staged rollouts. */
function firmwareUpdateRoutes(): string[] {
  const flowbox =
    '/v1/customers/{customerId}/sites/{siteId}/buildings/{buildingId}/zones/{zoneId}/flowboxes/{flowboxId}';
  return [
    'GET /v1/firmware/images',
    'POST /v1/firmware/images',
    'GET /v1/firmware/images/{imageId}',
    'PATCH /v1/firmware/images/{imageId}',
    'GET /v1/firmware/download/{token}',
    `GET ${flowbox}/firmware`,
    `POST ${flowbox}/firmware`,
    'GET /v1/firmware/rollouts',
    'POST /v1/firmware/rollouts',
    'GET /v1/firmware/rollouts/{rolloutId}',
    'GET /v1/firmware/rollouts/{rolloutId}/devices',
    'GET /v1/firmware/rollouts/{rolloutId}/timeline',
    'POST /v1/firmware/rollouts/{rolloutId}/{action}',
  ];
}

/** Issue #8: automatic closing of a zone. */
function automationRoutes(): string[] {
  const zone = '/v1/customers/{customerId}/sites/{siteId}/buildings/{buildingId}/zones/{zoneId}';
  return [
    `GET ${zone}/automation/info`,
    `PUT ${zone}/automation/update`,
    `POST ${zone}/automation/exit`,
    `POST ${zone}/automation/backtest`,
  ];
}

/** Issue #8: scheduled closings of a zone and their next occurrences. */
function scheduleRoutes(): string[] {
  const zone = '/v1/customers/{customerId}/sites/{siteId}/buildings/{buildingId}/zones/{zoneId}';
  const schedule = `${zone}/schedules/{scheduleId}`;
  return [
    `GET ${zone}/schedules/list`,
    `GET ${zone}/schedules/occurrences`,
    `POST ${zone}/schedules/create`,
    `GET ${schedule}/info`,
    `PUT ${schedule}/update`,
    `DELETE ${schedule}/delete`,
  ];
}

/** Issue #3: buildings, floors, zones, water points and their activity logs, nested like the site calls. */
function hierarchyRoutes(): string[] {
  const site = '/v1/customers/{customerId}/sites/{siteId}';
  const building = `${site}/buildings/{buildingId}`;
  const zone = `${building}/zones/{zoneId}`;
  const crud = (list: string, one: string, info: boolean) => [
    `GET ${list}/list`,
    `POST ${list}/create`,
    ...(info ? [`GET ${one}/info`] : []),
    `PUT ${one}/update`,
    `DELETE ${one}/delete`,
  ];
  return [
    ...crud(`${site}/buildings`, building, true),
    ...crud(`${building}/floors`, `${building}/floors/{floorId}`, false),
    ...crud(`${building}/zones`, zone, true),
    ...crud(`${zone}/water_points`, `${zone}/water_points/{waterPointId}`, false),
    `GET ${building}/events`,
    `GET ${zone}/events`,
  ];
}

/** Issue #4: flowboxes of a zone, their pairing steps and commands. */
function flowboxRoutes(): string[] {
  const zone = '/v1/customers/{customerId}/sites/{siteId}/buildings/{buildingId}/zones/{zoneId}';
  const flowbox = `${zone}/flowboxes/{flowboxId}`;
  return [
    `GET ${zone}/flowboxes/list`,
    `POST ${zone}/flowboxes/pair`,
    `GET ${flowbox}/info`,
    `POST ${flowbox}/validate`,
    `POST ${flowbox}/refuse`,
    `POST ${flowbox}/unpair`,
    `DELETE ${flowbox}/detach`,
    `POST ${flowbox}/commands/send`,
    `GET ${flowbox}/commands/list`,
    `GET ${flowbox}/commands/{commandId}/info`,
  ];
}

/** Issue 18: the plumber directory, the nearest plumbers of a site, the maps (docs/maps.md). */
function plumberRoutes(): string[] {
  const plumber = '/v1/plumbers/{plumberId}';
  return [
    'GET /v1/plumbers/list',
    'POST /v1/plumbers/create',
    `GET ${plumber}/info`,
    `PUT ${plumber}/update`,
    `DELETE ${plumber}/delete`,
    'GET /v1/customers/{customerId}/sites/{siteId}/plumbers/nearest',
    'GET /v1/map/settings',
    'GET /v1/map/sites',
  ];
}

/** The live channel is a stream of Server-Sent Events (DESIGN.md §6). */
const LIVE_STREAM = 'GET /v1/live/stream';

/** Image uploads take a multipart form; images are served as binary. */
const isImageUpload = (route: string) => /^PUT .*(\/logo|\/images\/\{kind\})$/.test(route);
const IMAGE_READ = 'GET /v1/images/{imageId}';
/** A device's firmware download: the image's bytes, behind the device's own credentials (HTTP Basic). */
const FIRMWARE_DOWNLOAD = 'GET /v1/firmware/download/{token}';
const FIRMWARE_UPLOAD = 'POST /v1/firmware/images';

const PUBLIC_ROUTES = [
  'POST /v1/users/token',
  'POST /v1/users/register',
  'POST /v1/users/register/confirm',
  'POST /v1/users/request_reset_password',
  'POST /v1/users/set_password',
  'POST /v1/users/reset_password',
  'GET /v1/health',
  'GET /v1/health/ready',
  'GET /v1/health/live',
];

/**
 * The API routes the app really serves, read from its router (HEAD answers come with GET). A route
 * that is the prefix of another (`…/consumption` and `…/consumption/export.csv`) prints the longer
 * one as a child line holding only its end, indented one level deeper.
 */
function servedRoutes(): string[] {
  const routes = new Set<string>();
  const parents: string[] = [];
  for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
    // A segment is its parent's path continued: `/…/water` then `_points/list` under it.
    const match = /^([│├└─\s]*)(\S+) \(([A-Z, ]+)\)/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const full = `${depth > 1 ? parents[depth - 2] : ''}${match[2]}`;
    parents[depth - 1] = full;
    if (!full.startsWith('/v1/') || full.startsWith('/v1/docs')) continue;
    const path = full.replace(/:(\w+)/g, '{$1}');
    for (const method of match[3]!.split(', ')) if (method !== 'HEAD') routes.add(`${method} ${path}`);
  }
  return [...routes].sort();
}

function documentedRoutes(): string[] {
  return Object.entries(doc.paths)
    .flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    )
    .sort();
}

function operations(): [string, Operation][] {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]): [string, Operation] => [`${method.toUpperCase()} ${path}`, op]),
  );
}

describe('the OpenAPI document', () => {
  it('is an OpenAPI 3 document of the Flowbox Manager API', () => {
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBe('Flowbox Manager API');
    expect(doc.components.securitySchemes).toHaveProperty('bearer');
  });

  it('lists every route the app serves under /v1, and nothing else', () => {
    expect(servedRoutes()).toEqual(EXPECTED_ROUTES);
    expect(documentedRoutes()).toEqual(servedRoutes());
  });

  it('gives each route its success answer and the one error shape for 400, 401, 403, 404, 409 and 429', () => {
    for (const [route, op] of operations()) {
      const statuses = Object.keys(op.responses);
      // A file's 206 (a byte range, files/files.http.ts) comes beside its 200.
      expect(
        statuses.filter((s) => s.startsWith('2') && s !== '206'),
        route,
      ).toHaveLength(1);
      for (const status of ['400', '401', '403', '404', '409', '429']) {
        const schema = op.responses[status]?.content?.['application/json']?.schema;
        expect(schema?.properties, `${route} ${status}`).toHaveProperty('code');
        expect(schema?.properties, `${route} ${status}`).toHaveProperty('message');
        expect(schema?.properties, `${route} ${status}`).toHaveProperty('details');
        expect(schema?.required, `${route} ${status}`).toEqual(['code', 'message']);
      }
    }
  });

  it('describes the body of each success answer, except the empty 204s', () => {
    for (const [route, op] of operations()) {
      const [status, answer] = Object.entries(op.responses).find(([s]) => s.startsWith('2'))!;
      if (status === '204') continue;
      if (route === IMAGE_READ) {
        expect(Object.keys(answer.content ?? {}).sort(), route).toEqual([
          'image/jpeg',
          'image/png',
          'image/webp',
        ]);
        continue;
      }
      if (route.endsWith('/export.csv') || route.endsWith('/report.csv')) {
        expect(Object.keys(answer.content ?? {}), route).toEqual(['text/csv']);
        continue;
      }
      if (route.endsWith('/report.pdf')) {
        expect(Object.keys(answer.content ?? {}), route).toEqual(['application/pdf']);
        continue;
      }
      if (route === LIVE_STREAM) {
        expect(Object.keys(answer.content ?? {}), route).toEqual(['text/event-stream']);
        continue;
      }
      if (route === FIRMWARE_DOWNLOAD) {
        expect(Object.keys(answer.content ?? {}), route).toEqual(['application/octet-stream']);
        continue;
      }
      expect(answer.content?.['application/json']?.schema, route).toMatchObject({ type: 'object' });
    }
  });

  it('asks for the Bearer token on every route but the public authentication ones', () => {
    for (const [route, op] of operations()) {
      if (PUBLIC_ROUTES.includes(route)) expect(op.security, route).toBeUndefined();
      else if (route === FIRMWARE_DOWNLOAD) expect(op.security, route).toEqual([{ device: [] }]);
      else expect(op.security, route).toEqual([{ bearer: [] }]);
    }
  });

  it('declares the path ids and the request bodies', () => {
    for (const [route, op] of operations()) {
      const ids = [...route.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const pathParams = (op.parameters ?? []).filter((p) => p.in === 'path');
      expect(pathParams.map((p) => p.name).sort(), route).toEqual(ids.sort());
      for (const p of pathParams) expect(p.required, route).toBe(true);
      if (route === FIRMWARE_UPLOAD) {
        const form = op.requestBody?.content['multipart/form-data']?.schema as Schema | undefined;
        expect(form?.required, route).toContain('file');
        expect(form?.properties?.file, route).toMatchObject({ type: 'string', format: 'binary' });
      } else if (isImageUpload(route)) {
        expect(op.requestBody?.content['multipart/form-data']?.schema, route).toMatchObject({
          required: ['file'],
          properties: { file: { type: 'string', format: 'binary' } },
        });
      } else if (/^(POST|PUT|DELETE) /.test(route) && !['POST /v1/users/refresh'].includes(route)) {
        expect(op.requestBody?.content['application/json']?.schema, route).toBeDefined();
      }
    }
  });

  it('documents the 413 and 415 answers of image uploads', () => {
    const uploads = operations().filter(([route]) => isImageUpload(route));
    expect(uploads).toHaveLength(3);
    for (const [route, op] of uploads)
      expect(Object.keys(op.responses), route).toEqual(expect.arrayContaining(['413', '415']));
  });

  it('documents the byte ranges of an image read: 206, 304 and 416', () => {
    const [, op] = operations().find(([route]) => route === IMAGE_READ)!;
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '206', '304', '416']));
    expect(Object.keys(op.responses['206']!.content ?? {}).sort()).toEqual([
      'image/jpeg',
      'image/png',
      'image/webp',
    ]);
  });

  it('documents the 503 of the pairing calls that give a device its broker account, of health, and of the live stream', () => {
    const zone = '/v1/customers/{customerId}/sites/{siteId}/buildings/{buildingId}/zones/{zoneId}';
    const with503 = operations().filter(([, op]) => op.responses['503']);
    expect(with503.map(([route]) => route).sort()).toEqual(
      [
        'GET /v1/health',
        'GET /v1/health/ready',
        // An instance that does not listen to the session notifications opens no stream (docs/permissions.md).
        'GET /v1/live/stream',
        `POST ${zone}/flowboxes/pair`,
        `POST ${zone}/flowboxes/{flowboxId}/validate`,
      ].sort(),
    );
    for (const [route, op] of with503)
      expect(op.responses['503']!.content?.['application/json']?.schema?.required, route).toEqual([
        'code',
        'message',
      ]);
  });

  it('documents the site_id filter of the site-manager list (spec §7)', () => {
    const list = doc.paths['/v1/customers/{customerId}/site_managers/list']!.get!;
    expect(list.parameters?.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(
      expect.arrayContaining(['site_id', 'search', 'limit', 'offset']),
    );
  });
});

describe('the documentation pages', () => {
  it('serve the interactive UI at /v1/docs, without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('Swagger UI');
  });

  it('serve the document as YAML too', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/docs/yaml' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/^openapi: 3\./m);
  });
});
