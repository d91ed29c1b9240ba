import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_IMAGE_BYTES } from '@flowbox/shared';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, images } from '../db/schema.ts';
import {
  ApiClient,
  buildingBody,
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
const uploadedFiles = () => readdirSync(t.uploadsDir).sort();

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

describe('uploading where the server cannot write', () => {
  it("answers 503 in the caller's language and records nothing when DATA_DIR cannot hold the file", async () => {
    const config = t.services.context.config as { uploadsDir: string };
    const writable = config.uploadsDir;
    // A folder under a plain file: mkdir fails (ENOTDIR) even for root, as a read-only or full disk would.
    const blocker = join(mkdtempSync(join(tmpdir(), 'fbx-blocked-')), 'a-file');
    writeFileSync(blocker, '');
    config.uploadsDir = join(blocker, 'uploads');
    try {
      const rows = await imageRows();
      const res = await cmA.upload(`${building}/images/picture`, TINY_PNG, 'front.png');
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().code).toBe('errors.storage_unavailable');
      const cmAFrench = await loginAs(t.app, 'cm.a@test.io', 'fr');
      const fr = await cmAFrench.upload(`${building}/images/picture`, TINY_PNG, 'front.png');
      expect(fr.statusCode).toBe(503);
      expect(fr.json().message).toMatch(/enregistré/);
      expect(await imageRows()).toBe(rows);
    } finally {
      config.uploadsDir = writable;
    }
  });
});

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
    expect(uploadedFiles()).toContain(`${url.split('/').pop()}.png`);
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
    const second = (await cmA.upload(`${building}/images/plan`, JPEG)).json().url as string;
    expect(second).not.toBe(first);
    expect((await cmA.get(first)).statusCode).toBe(404);
    expect(uploadedFiles().some((f) => f.startsWith(first.split('/').pop()!))).toBe(false);
    expect((await cmA.get(`${building}/info`)).json().plan).toBe(second);
  });

  it.each([
    ['an SVG named .png', SVG, 'logo.png', 'image/png'],
    ['an HTML page named .jpg', HTML, 'photo.jpg', 'image/jpeg'],
    ['an empty file', Buffer.alloc(0), 'empty.png', 'image/png'],
  ])('refuses %s with 415, and stores nothing', async (_what, bytes, name, type) => {
    const [files, rows, before] = [
      uploadedFiles(),
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
    expect(uploadedFiles()).toEqual(files);
    expect(await imageRows()).toBe(rows);
    expect((await cmA.get(`${building}/info`)).json()).toEqual(before);
  });

  it('refuses an image over 5 MiB with 413, in the caller language', async () => {
    const files = uploadedFiles();
    const big = Buffer.concat([TINY_PNG, Buffer.alloc(MAX_IMAGE_BYTES)]);
    const res = await new ApiClient(t.app, 'fr')
      .login('cm.a@test.io')
      .then((c) => c.upload(`${building}/images/picture`, big));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      code: 'errors.image_too_large',
      message: "L'image est trop volumineuse : 5 Mo au plus",
    });
    expect(uploadedFiles()).toEqual(files);
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
    const file = join(t.uploadsDir, `${url.split('/').pop()}.png`);
    expect(existsSync(file)).toBe(true);
    await cmA.delete(`${site}/buildings/${created.id}/delete`, { confirm_name: 'Gone' });
    expect(existsSync(file)).toBe(false);

    const customer = (await provider.post('/v1/customers/create', { name: 'Logo Ltd' })).json();
    const logo = (await provider.upload(`/v1/customers/${customer.id}/logo`, TINY_PNG)).json().url as string;
    await provider.delete(`/v1/customers/${customer.id}/delete`, { confirm_name: 'Logo Ltd' });
    expect(uploadedFiles().some((f) => f.startsWith(logo.split('/').pop()!))).toBe(false);
  });
});
