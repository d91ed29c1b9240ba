import { createHash } from 'node:crypto';
import { MAX_IMAGE_BYTES } from '@flowbox/shared';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, files, images } from '../db/schema.ts';
import { CHUNK_SIZE } from '../files/files.store.ts';
import {
  ApiClient,
  buildingBody,
  createSecondInstance,
  createTestApp,
  createWorld,
  loginAs,
  TINY_PNG,
  type TestApp,
  type World,
} from '../test/harness.ts';

let t: TestApp;
let w: World;
let provider: ApiClient;
let cmA: ApiClient;
let smA: ApiClient;
let cmB: ApiClient;
let building: string;
const storedFiles = async () => (await t.db.select({ n: count() }).from(files))[0]!.n;
const imageIdOf = (url: string) => url.split('/').pop()!;
/** The stored file behind an image's URL, if it has one. */
async function fileOf(url: string) {
  const [row] = await t.db
    .select({ file: files })
    .from(images)
    .innerJoin(files, eq(files.id, images.fileId))
    .where(eq(images.id, imageIdOf(url)));
  return row?.file;
}
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t.db);
  [provider, cmA, smA, cmB] = await Promise.all([
    loginAs(t.app, 'provider@test.io'),
    loginAs(t.app, 'cm.a@test.io'),
    loginAs(t.app, 'sm.a@test.io'),
    loginAs(t.app, 'cm.b@test.io'),
  ]);
  const site = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
  const created = await cmA.post(`${site}/buildings/create`, buildingBody({ name: 'Pictured' }));
  building = `${site}/buildings/${created.json().id}`;
});
afterAll(() => t.close());

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 1)]);
const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0x20, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
  Buffer.alloc(24),
]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
const HTML = Buffer.from('<!doctype html><html><script>alert(document.cookie)</script></html>');
const imageRows = async () => (await t.db.select({ n: count() }).from(images))[0]!.n;

describe('uploading a building picture', () => {
  it('stores a PNG and serves it back byte for byte, inline, with its type and nosniff', async () => {
    const res = await smA.upload(`${building}/images/picture`, TINY_PNG, 'front.png');
    expect(res.statusCode, res.body).toBe(200);
    const url: string = res.json().url;
    expect(url).toMatch(/^\/v1\/images\/[0-9a-f-]{36}$/);
    expect((await cmA.get(`${building}/info`)).json().picture).toBe(url);

    const image = await smA.get(url);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(image.headers['content-disposition']).toBe('inline');
    expect(image.rawPayload.equals(TINY_PNG)).toBe(true);
    expect(image.headers.etag).toBe(`"${sha256(TINY_PNG)}"`);
    expect(await fileOf(url)).toMatchObject({ byteSize: TINY_PNG.length, contentType: 'image/png' });
  });

  it('takes JPEG and WebP by their first bytes, whatever the file is called', async () => {
    for (const [bytes, type] of [
      [JPEG, 'image/jpeg'],
      [WEBP, 'image/webp'],
    ] as const) {
      const res = await cmA.upload(`${building}/images/plan`, bytes, 'plan.gif', 'application/octet-stream');
      expect(res.statusCode, res.body).toBe(200);
      expect((await cmA.get(res.json().url)).headers['content-type']).toBe(type);
    }
  });

  it('replaces the previous image and deletes its file', async () => {
    const first = (await cmA.upload(`${building}/images/plan`, TINY_PNG)).json().url as string;
    const firstFile = (await fileOf(first))!;
    const stored = await storedFiles();
    const second = (await cmA.upload(`${building}/images/plan`, JPEG)).json().url as string;
    expect(second).not.toBe(first);
    expect((await cmA.get(first)).statusCode).toBe(404);
    expect(await t.db.select().from(files).where(eq(files.id, firstFile.id))).toEqual([]);
    expect(await storedFiles()).toBe(stored);
    expect((await cmA.get(`${building}/info`)).json().plan).toBe(second);
  });

  it.each([
    ['an SVG named .png', SVG, 'logo.png', 'image/png'],
    ['an HTML page named .jpg', HTML, 'photo.jpg', 'image/jpeg'],
    ['an empty file', Buffer.alloc(0), 'empty.png', 'image/png'],
  ])('refuses %s with 415, and stores nothing', async (_what, bytes, name, type) => {
    const [stored, rows, before] = [
      await storedFiles(),
      await imageRows(),
      (await cmA.get(`${building}/info`)).json(),
    ];
    const res = await cmA.request('PUT', `${building}/images/picture`, undefined, {});
    expect(res.statusCode).toBe(415);
    const upload = await cmA.upload(`${building}/images/picture`, bytes, name, type);
    expect(upload.statusCode).toBe(415);
    expect(upload.json()).toEqual({
      code: 'errors.image_type',
      message: 'The image must be a PNG, JPEG or WebP file',
    });
    expect(await storedFiles()).toBe(stored);
    expect(await imageRows()).toBe(rows);
    expect((await cmA.get(`${building}/info`)).json()).toEqual(before);
  });

  it('refuses an image over 5 MiB with 413, in the caller language', async () => {
    const stored = await storedFiles();
    const big = Buffer.concat([TINY_PNG, Buffer.alloc(MAX_IMAGE_BYTES)]);
    const res = await new ApiClient(t.app, 'fr')
      .login('cm.a@test.io')
      .then((c) => c.upload(`${building}/images/picture`, big));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      code: 'errors.image_too_large',
      message: "L'image est trop volumineuse : 5 Mo au plus",
    });
    expect(await storedFiles()).toBe(stored);
  });

  it('refuses a form without its boundary with 400, not a 500 (found by the fuzz step)', async () => {
    const res = await cmA.request('PUT', `${building}/images/picture`, 'no boundary', {
      'content-type': 'multipart/form-data',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ path: 'file', message: 'This field is required' }]);
  });

  it('refuses a kind of image the building does not have', async () => {
    const res = await cmA.upload(`${building}/images/logo`, TINY_PNG);
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ path: 'kind', message: 'Please select an option' }]);
  });

  it('records the change in the activity log', async () => {
    const before = (await t.db.select({ n: count() }).from(events))[0]!.n;
    await cmA.upload(`${building}/images/picture`, TINY_PNG);
    const log = await cmA.get(`${building}/events?limit=1`);
    expect(log.json().items[0]).toMatchObject({
      action_name: 'updated',
      object_name: 'building',
      changed_fields: ['picture'],
    });
    expect((await t.db.select({ n: count() }).from(events))[0]!.n).toBe(before + 1);
  });
});

describe('who may see and change images', () => {
  it("keeps one customer's images from another customer's managers", async () => {
    const url = (await cmA.upload(`${building}/images/picture`, TINY_PNG)).json().url as string;
    const refused = await cmB.get(url);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ code: 'errors.forbidden', message: 'Unauthorized resource recovery' });
    expect((await cmB.upload(`${building}/images/picture`, TINY_PNG)).statusCode).toBe(403);
    expect((await new ApiClient(t.app).get(url)).statusCode).toBe(401);
    expect((await provider.get(url)).statusCode).toBe(200);
  });

  it("shows a site's images to its site manager only, and lets customer managers change them", async () => {
    const sitePath = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a2.id}`;
    const plan = await cmA.upload(`${sitePath}/images/plan`, TINY_PNG);
    expect(plan.statusCode).toBe(200);
    expect((await cmA.get(`${sitePath}/info`)).json().plan).toBe(plan.json().url);
    expect((await smA.get(plan.json().url)).statusCode).toBe(403);
    expect((await smA.upload(`${sitePath}/images/logo`, TINY_PNG)).statusCode).toBe(403);
    const own = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
    expect((await smA.upload(`${own}/images/logo`, TINY_PNG)).statusCode).toBe(403);
    const logo = await cmA.upload(`${own}/images/logo`, TINY_PNG);
    expect((await smA.get(logo.json().url)).statusCode).toBe(200);
  });

  it("lets a customer manager set its customer's logo, which its site managers see too", async () => {
    const res = await cmA.upload(`/v1/customers/${w.customers.a.id}/logo`, TINY_PNG);
    expect(res.statusCode).toBe(200);
    expect((await cmA.get(`/v1/customers/${w.customers.a.id}/info`)).json().logo).toBe(res.json().url);
    expect((await smA.get(res.json().url)).statusCode).toBe(200);
    expect((await cmB.get(res.json().url)).statusCode).toBe(403);
    expect((await smA.upload(`/v1/customers/${w.customers.a.id}/logo`, TINY_PNG)).statusCode).toBe(403);
    expect((await cmB.upload(`/v1/customers/${w.customers.a.id}/logo`, TINY_PNG)).statusCode).toBe(403);
  });

  it('answers 404 for an image that does not exist', async () => {
    const res = await provider.get('/v1/images/00000000-0000-4000-8000-000000000000');
    expect(res.statusCode).toBe(404);
  });
});

describe('deleting what images belong to', () => {
  it('deletes their files too', async () => {
    const site = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
    const created = (await cmA.post(`${site}/buildings/create`, buildingBody({ name: 'Gone' }))).json();
    const url = (await cmA.upload(`${site}/buildings/${created.id}/images/picture`, TINY_PNG)).json()
      .url as string;
    const file = (await fileOf(url))!;
    await cmA.delete(`${site}/buildings/${created.id}/delete`, { confirm_name: 'Gone' });
    expect(await t.db.select().from(files).where(eq(files.id, file.id))).toEqual([]);

    const customer = (await provider.post('/v1/customers/create', { name: 'Logo Ltd' })).json();
    const logo = (await provider.upload(`/v1/customers/${customer.id}/logo`, TINY_PNG)).json().url as string;
    const logoFile = (await fileOf(logo))!;
    await provider.delete(`/v1/customers/${customer.id}/delete`, { confirm_name: 'Logo Ltd' });
    expect(await t.db.select().from(files).where(eq(files.id, logoFile.id))).toEqual([]);

    const siteWithPlan = (
      await cmA.post(`/v1/customers/${w.customers.a.id}/sites/create`, { name: 'Planned' })
    ).json();
    const sitePath = `/v1/customers/${w.customers.a.id}/sites/${siteWithPlan.id}`;
    const plan = (await cmA.upload(`${sitePath}/images/plan`, TINY_PNG)).json().url as string;
    const planFile = (await fileOf(plan))!;
    await cmA.delete(`${sitePath}/delete`, { confirm_name: 'Planned' });
    expect(await t.db.select().from(files).where(eq(files.id, planFile.id))).toEqual([]);
  });
});

/** A PNG of three and a bit chunks: its ranges cross chunk boundaries. */
const BIG_PNG = Buffer.concat([TINY_PNG, Buffer.alloc(3 * CHUNK_SIZE + 1000, 0x5a)]);

describe('serving an image in ranges (RFC 9110)', () => {
  let url: string;
  let etag: string;
  beforeAll(async () => {
    url = (await cmA.upload(`${building}/images/plan`, BIG_PNG)).json().url;
    etag = `"${sha256(BIG_PNG)}"`;
  });
  const get = (headers: Record<string, string>) => cmA.request('GET', url, undefined, headers);

  it('answers the whole image with its length, Accept-Ranges and a strong ETag', async () => {
    const res = await get({});
    expect(res.statusCode).toBe(200);
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers.etag).toBe(etag);
    expect(res.headers['content-length']).toBe(String(BIG_PNG.length));
    expect(res.rawPayload.equals(BIG_PNG)).toBe(true);
  });

  it.each([
    ['bytes=0-9', 0, 9],
    [`bytes=${CHUNK_SIZE - 5}-${CHUNK_SIZE + 4}`, CHUNK_SIZE - 5, CHUNK_SIZE + 4],
    [`bytes=${2 * CHUNK_SIZE}-`, 2 * CHUNK_SIZE, BIG_PNG.length - 1],
    ['bytes=-100', BIG_PNG.length - 100, BIG_PNG.length - 1],
  ])('answers %s with 206 and those bytes', async (range, start, end) => {
    const res = await get({ range });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${BIG_PNG.length}`);
    expect(res.headers['content-length']).toBe(String(end - start + 1));
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.equals(BIG_PNG.subarray(start, end + 1))).toBe(true);
  });

  it("answers a range past the end with 416 and the image's size, in the caller's language", async () => {
    const res = await get({ range: `bytes=${BIG_PNG.length}-` });
    expect(res.statusCode).toBe(416);
    expect(res.headers['content-range']).toBe(`bytes */${BIG_PNG.length}`);
    expect(res.json().code).toBe('errors.range_not_satisfiable');
    const fr = await (
      await loginAs(t.app, 'cm.a@test.io', 'fr')
    ).request('GET', url, undefined, {
      range: 'bytes=-0',
    });
    expect(fr.statusCode).toBe(416);
    expect(fr.json().message).toBe('La plage demandée est en dehors du fichier');
  });

  it('answers several ranges with the whole image', async () => {
    const res = await get({ range: 'bytes=0-1,10-20' });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(BIG_PNG)).toBe(true);
  });

  it('resumes with If-Range only while the image is the same one', async () => {
    expect((await get({ range: 'bytes=100-', 'if-range': etag })).statusCode).toBe(206);
    const changed = await get({ range: 'bytes=100-', 'if-range': `"${sha256(TINY_PNG)}"` });
    expect(changed.statusCode).toBe(200);
    expect(changed.rawPayload.equals(BIG_PNG)).toBe(true);
  });

  it('answers 304 without a body to an If-None-Match naming its ETag', async () => {
    const res = await get({ 'if-none-match': etag });
    expect(res.statusCode).toBe(304);
    expect(res.rawPayload.length).toBe(0);
    expect(res.headers.etag).toBe(etag);
    expect((await get({ 'if-none-match': '"something else"' })).statusCode).toBe(200);
  });

  it('still refuses a range of an image the caller may not read', async () => {
    const res = await cmB.request('GET', url, undefined, { range: 'bytes=0-9' });
    expect(res.statusCode).toBe(403);
  });
});

describe('two instances on one database', () => {
  it('serves through instance B an image uploaded through instance A', async () => {
    const b = await createSecondInstance(t);
    try {
      const url = (await cmA.upload(`${building}/images/picture`, BIG_PNG)).json().url as string;
      const cmAOnB = await loginAs(b.app, 'cm.a@test.io');
      const whole = await cmAOnB.get(url);
      expect(whole.statusCode).toBe(200);
      expect(whole.rawPayload.equals(BIG_PNG)).toBe(true);
      const range = await cmAOnB.request('GET', url, undefined, { range: 'bytes=-10' });
      expect(range.statusCode).toBe(206);
      expect(range.rawPayload.equals(BIG_PNG.subarray(-10))).toBe(true);
    } finally {
      await b.close();
    }
  });
});
