import { translate } from '@flowbox/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firmwareImages, firmwareUpdates } from '../db/schema.ts';
import { firmwareForm } from '../firmware/catalogue.testing.ts';
import { createZones, pairDirectly, type PairedDevice } from '../telemetry/testing.ts';
import {
  buildingBody,
  createWorldApp,
  TINY_PNG,
  type ApiClient,
  type TestApp,
  type World,
} from '../test/harness.ts';
import { insertImage, updateWithDownload } from '../firmware/testing.ts';

/*
 * What a request carries outside the query, path and JSON body that the validator checks
 * (error-handler.ts): the fields of a multipart form, the range and validator headers of a file,
 * the request id, the live stream's ticket. Text PostgreSQL cannot hold (U+0000) is the field's
 * 400 like anywhere else, and no header value, however long or odd, answers a 5xx. (HTTP Basic
 * credentials: flowboxes/device-auth.test.ts; cursors: cursors.test.ts.)
 */

let t: TestApp;
let w: World;
let provider: ApiClient;
let device: PairedDevice;
let downloadUrl: string;
let updateId: string;
let imageUrl: string;

beforeAll(async () => {
  ({ t, w, provider } = await createWorldApp());
  const site = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
  const buildingId = (await provider.post(`${site}/buildings/create`, buildingBody())).json<{ id: string }>()
    .id;
  const picture = await provider.upload(`${site}/buildings/${buildingId}/images/picture`, TINY_PNG);
  imageUrl = picture.json<{ url: string }>().url;
  const [zone] = await createZones(t.db, 'Europe/Paris');
  device = await pairDirectly(t.db, zone!);
  const image = await insertImage(t.db, { version: '9.9.9' });
  ({ url: downloadUrl, id: updateId } = await updateWithDownload(t, device, image));
});
afterAll(() => t?.close());

describe('the firmware upload form', () => {
  const fields = { version: '3.1.4', models: 'one_inch_v1', released_to: 'all' };
  const upload = (more: Record<string, string>) => {
    const { payload, headers } = firmwareForm(
      { ...fields, ...more },
      Buffer.alloc(64, 1),
      'flowbox-one_inch_v1-3.1.4.bin',
    );
    return provider.request('POST', '/v1/firmware/images', payload, headers);
  };

  it.each(['notes_en', 'notes_fr', 'version', 'models', 'released_to'])(
    'refuses U+0000 in %s as that field, and keeps no image',
    async (field) => {
      const before = (await t.db.select().from(firmwareImages)).length;
      const res = await upload({ [field]: `${field === 'version' ? '3.1.4' : 'a'}\u0000b` });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<{ details: { path: string; message: string }[] }>().details).toContainEqual({
        path: expect.stringMatching(new RegExp(`^${field}(\\.\\d+)?$`)),
        message: translate('validation.forbidden_character', 'en'),
      });
      expect((await t.db.select().from(firmwareImages)).length).toBe(before);
    },
  );

  it('takes the same form without it', async () => {
    const res = await upload({ notes_en: 'Fixes the valve timing.' });
    expect(res.statusCode, res.body).toBe(201);
  });
});

/** Header values a client may send (HTTP refuses control characters other than tab in a header). */
const HOSTILE_HEADERS = [
  'bytes=99999999999999999999999999-',
  'bytes=-99999999999999999999999999',
  `bytes=0-${'9'.repeat(400)}`,
  `bytes=${'9'.repeat(400)}-${'9'.repeat(401)}`,
  'bytes=-0',
  'bytes=0-0,1-1,2-2',
  'bytes=1e3-',
  'bytes=0x10-',
  'bytes=-',
  'bytes = 5 - 10',
  'items=0-10',
  '"',
  'W/"x"',
  '*',
  '\t',
  'ÿþ',
  'x'.repeat(8_000),
];

describe('the range and validator headers of a file', () => {
  it('answer the file, a part of it or 416 to a firmware download, never a 5xx', async () => {
    const authorization = `Basic ${Buffer.from(`${device.serial}:${device.password}`).toString('base64')}`;
    const failures: string[] = [];
    for (const value of HOSTILE_HEADERS)
      for (const headers of [
        { range: value },
        { range: 'bytes=0-10', 'if-range': value },
        { 'if-range': value },
      ]) {
        // Each GET counts as a download of the update: a fresh count keeps it downloading.
        await t.db
          .update(firmwareUpdates)
          .set({ downloadAttempts: 0 })
          .where(eq(firmwareUpdates.id, updateId));
        const res = await t.app.inject({
          method: 'GET',
          url: downloadUrl,
          headers: { authorization, ...headers },
        });
        if (![200, 206, 416].includes(res.statusCode))
          failures.push(
            `${JSON.stringify(headers).slice(0, 120)} → ${res.statusCode} ${res.body.slice(0, 200)}`,
          );
      }
    expect(failures).toEqual([]);
  });

  it('answer an image, a part of it, 304 or 416, never a 5xx', async () => {
    const failures: string[] = [];
    for (const value of HOSTILE_HEADERS)
      for (const headers of [
        { range: value },
        { 'if-none-match': value },
        { range: 'bytes=0-1', 'if-range': value },
      ] as Record<string, string>[]) {
        const res = await provider.request('GET', imageUrl, undefined, headers);
        if (![200, 206, 304, 416].includes(res.statusCode))
          failures.push(
            `${JSON.stringify(headers).slice(0, 120)} → ${res.statusCode} ${res.body.slice(0, 200)}`,
          );
      }
    expect(failures).toEqual([]);
  });
});

describe('the request id', () => {
  it.each(['', ' ', 'a b', 'x'.repeat(65), '"quoted"', 'ÿ', '../..', 'id\tid'])(
    'is replaced by one of ours when it is %j',
    async (given) => {
      const res = await provider.request('GET', '/v1/users/me', undefined, { 'x-request-id': given });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-request-id']).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      );
    },
  );
});

describe('the live stream ticket', () => {
  const forged = (claims: object) =>
    [
      Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url'),
      Buffer.from(JSON.stringify(claims)).toString('base64url'),
      'c2lnbmF0dXJl',
    ].join('.');
  it.each([
    'a%00b',
    '%00',
    encodeURIComponent(forged({ sub: 'a\u0000b', sid: '\u0000', exp: 9e15 })),
    encodeURIComponent(`eyJhbGciOiJub25lIn0.${Buffer.from('{"sub":"x\\u0000"}').toString('base64url')}.`),
    'x'.repeat(2_000),
    'x'.repeat(2_001),
    '.',
    '..',
  ])('refuses ?ticket=%s with a 4xx', async (ticket) => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/live/stream?ticket=${ticket}` });
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
    expect(res.statusCode, res.body).toBeLessThan(500);
  });
});
