import { randomBytes } from 'node:crypto';
import { FIRMWARE_MAX_BYTES, translate, type FirmwareImage } from '@flowbox/shared';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildings, events, fileChunks, files, firmwareImages, flowboxes, zones } from '../db/schema.ts';
import {
  buildingBody,
  createTestApp,
  createWorld,
  loginAs,
  zoneBody,
  type ApiClient,
  type TestApp,
  type World,
} from '../test/harness.ts';
import { firmwareForm, sha256Of, uploadFirmware } from './catalogue.testing.ts';

let t: TestApp;
let w: World;
let provider: ApiClient;
let providerFr: ApiClient;
let cmA: ApiClient;
let smA: ApiClient;
let cmB: ApiClient;
let smB: ApiClient;

beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t.db);
  [provider, providerFr, cmA, smA, cmB, smB] = await Promise.all([
    loginAs(t.app, 'provider@test.io'),
    loginAs(t.app, 'provider@test.io', 'fr'),
    loginAs(t.app, 'cm.a@test.io'),
    loginAs(t.app, 'sm.a@test.io'),
    loginAs(t.app, 'cm.b@test.io'),
    loginAs(t.app, 'sm.b@test.io'),
  ]);
});
afterAll(() => t.close());

const rows = async () => ({
  images: (await t.db.select({ n: count() }).from(firmwareImages))[0]!.n,
  files: (await t.db.select({ n: count() }).from(files))[0]!.n,
  chunks: (await t.db.select({ n: count() }).from(fileChunks))[0]!.n,
  events: (await t.db.select({ n: count() }).from(events))[0]!.n,
});
const listed = async (client: ApiClient, query = '') => {
  const res = await client.get(`/v1/firmware/images${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ items: FirmwareImage[] }>().items;
};

describe('uploading a firmware image', () => {
  it('stores the file in the file store, with its sha256 and size computed by the server', async () => {
    const bytes = randomBytes(600_000);
    const res = await uploadFirmware(provider, {
      version: '1.0.0',
      models: ['one_inch_v1', 'half_inch_v1'],
      bytes,
      fileName: 'flowbox-one_inch_v1+half_inch_v1-1.0.0.bin',
      notes: { en: 'First release', fr: 'Première version' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const image = res.json<FirmwareImage>();
    expect(image).toMatchObject({
      version: '1.0.0',
      models: ['one_inch_v1', 'half_inch_v1'],
      file_name: 'flowbox-one_inch_v1+half_inch_v1-1.0.0.bin',
      size: 600_000,
      sha256: sha256Of(bytes),
      notes_en: 'First release',
      notes_fr: 'Première version',
      status: 'active',
      released_to: 'all',
      uploaded_by_name: 'Pat Provider',
      installed_count: 0,
    });
    const [row] = await t.db.select().from(firmwareImages).where(eq(firmwareImages.id, image.id));
    const [file] = await t.db.select().from(files).where(eq(files.id, row!.fileId));
    expect(file).toMatchObject({ byteSize: 600_000, sha256: sha256Of(bytes) });
    const [logged] = await t.db.select().from(events).where(eq(events.objectId, image.id));
    expect(logged).toMatchObject({
      actionName: 'created',
      objectName: 'firmware_image',
      objectLabel: image.file_name,
      userId: w.users.provider.id,
      customerId: null,
    });
  });

  it('takes the models as one comma-separated field as well', async () => {
    const bytes = randomBytes(1000);
    const { payload, headers } = firmwareForm(
      { version: '1.0.1', models: 'two_inches_v1, half_inch_v1', released_to: 'all' },
      bytes,
      'flowbox-half_inch_v1+two_inches_v1-1.0.1.bin',
    );
    const res = await provider.request('POST', '/v1/firmware/images', payload, headers);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<FirmwareImage>().models).toEqual(['two_inches_v1', 'half_inch_v1']);
  });

  it('refuses a misnamed file with "firmware naming not correct" in English and French, and stores nothing', async () => {
    const before = await rows();
    const cases = [
      { fileName: 'flowbox-one_inch_v1-2.0.1.bin', version: '2.0.0' },
      { fileName: 'flowbox-half_inch_v1-2.0.0.bin', version: '2.0.0' },
      { fileName: 'firmware.bin', version: '2.0.0' },
      { fileName: 'flowbox-one_inch_v1-2.0.0.zip', version: '2.0.0' },
    ];
    for (const { fileName, version } of cases) {
      const en = await uploadFirmware(provider, { version, fileName });
      expect(en.statusCode, fileName).toBe(400);
      expect(en.json()).toMatchObject({
        code: 'errors.firmware_naming',
        message: 'Firmware naming not correct: the file must be named flowbox-one_inch_v1-2.0.0.bin',
      });
    }
    const fr = await uploadFirmware(providerFr, { version: '2.0.0', fileName: 'firmware.bin' });
    expect(fr.json().message).toBe(
      'Nommage du firmware incorrect : le fichier doit s’appeler flowbox-one_inch_v1-2.0.0.bin',
    );
    expect(await rows()).toEqual(before);
  });

  it('refuses an image over 16 MiB (413) and an empty one (400), storing nothing', async () => {
    const before = await rows();
    const large = await uploadFirmware(provider, {
      version: '3.0.0',
      bytes: randomBytes(FIRMWARE_MAX_BYTES + 1),
    });
    expect(large.statusCode).toBe(413);
    expect(large.json()).toMatchObject({
      code: 'errors.firmware_too_large',
      message: translate('errors.firmware_too_large', 'en', { max: 16 }),
    });
    const empty = await uploadFirmware(provider, { version: '3.0.0', bytes: Buffer.alloc(0) });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().code).toBe('errors.firmware_empty');
    expect(await rows()).toEqual(before);
    const exact = await uploadFirmware(provider, {
      version: '3.0.0',
      bytes: randomBytes(FIRMWARE_MAX_BYTES),
    });
    expect(exact.statusCode, exact.body).toBe(201);
    expect(exact.json<FirmwareImage>().size).toBe(FIRMWARE_MAX_BYTES);
  });

  it('refuses a version already in the catalogue for one of its models, and the same bytes again (409)', async () => {
    const bytes = randomBytes(2048);
    expect(
      (await uploadFirmware(provider, { version: '4.0.0', models: ['one_inch_v1'], bytes })).statusCode,
    ).toBe(201);
    const before = await rows();
    const sameVersion = await uploadFirmware(provider, {
      version: '4.0.0',
      models: ['one_inch_v1', 'two_inches_v1'],
    });
    expect(sameVersion.statusCode).toBe(409);
    expect(sameVersion.json().code).toBe('errors.firmware_duplicate');
    const sameBytes = await uploadFirmware(provider, { version: '4.0.1', bytes });
    expect(sameBytes.statusCode).toBe(409);
    expect(sameBytes.json().code).toBe('errors.firmware_duplicate');
    expect(await rows()).toEqual(before);
    // The same version for another model is another image.
    expect((await uploadFirmware(provider, { version: '4.0.0', models: ['half_inch_v1'] })).statusCode).toBe(
      201,
    );
  });

  it('is for provider managers only, and reads nothing of a refused upload', async () => {
    const before = await rows();
    for (const client of [cmA, smA, cmB]) {
      const res = await uploadFirmware(client, { version: '5.0.0' });
      expect(res.statusCode).toBe(403);
    }
    expect(await rows()).toEqual(before);
  });

  it('asks for the fields before the file, and valid ones', async () => {
    const before = await rows();
    const noFields = firmwareForm({}, randomBytes(100), 'flowbox-one_inch_v1-6.0.0.bin');
    const res = await provider.request('POST', '/v1/firmware/images', noFields.payload, noFields.headers);
    expect(res.statusCode).toBe(400);
    expect(
      res
        .json()
        .details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['models', 'released_to', 'version']);
    const bad = await uploadFirmware(provider, {
      version: '6.0',
      fileName: 'flowbox-one_inch_v1-6.0.bin',
      releasedTo: ['not-a-uuid'],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.map((d: { path: string }) => d.path)).toEqual(['version', 'released_to.0']);
    const unknownCustomer = await uploadFirmware(provider, {
      version: '6.0.0',
      releasedTo: ['00000000-0000-4000-8000-000000000000'],
    });
    expect(unknownCustomer.statusCode).toBe(400);
    expect(await rows()).toEqual(before);
  });
});

/**
 * The form as a client that builds it field by field sends it (curl's `-F` order, a browser's
 * FormData): a real multipart body, each entry in the order given.
 */
async function formInOrder(entries: [string, string | { bytes: Buffer; fileName: string }][]) {
  const form = new FormData();
  for (const [name, value] of entries)
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, new Blob([value.bytes]), value.fileName);
  const request = new Request('http://flowbox.test/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  };
}

describe('an upload whose fields come after the file (docs/firmware.md "Catalogue")', () => {
  const file = (version: string) => ({
    bytes: randomBytes(2000),
    fileName: `flowbox-one_inch_v1-${version}.bin`,
  });

  it.each(['en', 'fr'] as const)(
    'refuses a release sent after the file, naming it, and stores nothing (%s)',
    async (language) => {
      const client = language === 'en' ? provider : providerFr;
      const before = await rows();
      const { payload, headers } = await formInOrder([
        ['version', '6.5.0'],
        ['models', 'one_inch_v1'],
        ['file', file('6.5.0')],
        ['released_to', w.customers.a.id],
      ]);
      const res = await client.request('POST', '/v1/firmware/images', payload, headers);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'errors.firmware_fields_after_file',
        message: translate('errors.firmware_fields_after_file', language, { fields: 'released_to' }),
      });
      expect(await rows()).toEqual(before);
    },
  );

  it('refuses any field after the file, even when those before it are complete', async () => {
    const before = await rows();
    const { payload, headers } = await formInOrder([
      ['version', '6.5.1'],
      ['models', 'one_inch_v1'],
      ['released_to', w.customers.a.id],
      ['file', file('6.5.1')],
      ['notes_en', 'Fixes the valve timing.'],
      ['released_to', w.customers.b.id],
    ]);
    const res = await provider.request('POST', '/v1/firmware/images', payload, headers);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'errors.firmware_fields_after_file',
      message: translate('errors.firmware_fields_after_file', 'en', { fields: 'notes_en, released_to' }),
    });
    expect(await rows()).toEqual(before);
  });

  it("refuses curl's order, every field after the file", async () => {
    const { payload, headers } = await formInOrder([
      ['file', file('6.5.2')],
      ['version', '6.5.2'],
      ['models', 'one_inch_v1'],
      ['released_to', w.customers.a.id],
    ]);
    const res = await provider.request('POST', '/v1/firmware/images', payload, headers);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'errors.firmware_fields_after_file',
      message: translate('errors.firmware_fields_after_file', 'en', {
        fields: 'version, models, released_to',
      }),
    });
  });

  it('asks for the release rather than giving the image to every customer', async () => {
    const before = await rows();
    const { payload, headers } = await formInOrder([
      ['version', '6.5.3'],
      ['models', 'one_inch_v1'],
      ['file', file('6.5.3')],
    ]);
    const res = await providerFr.request('POST', '/v1/firmware/images', payload, headers);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().details).toEqual([
      { path: 'released_to', message: translate('validation.required', 'fr') },
    ]);
    expect(await rows()).toEqual(before);
  });

  it('takes the same fields sent before the file', async () => {
    const { payload, headers } = await formInOrder([
      ['version', '6.5.4'],
      ['models', 'one_inch_v1'],
      ['notes_en', 'Fixes the valve timing.'],
      ['released_to', w.customers.a.id],
      ['file', file('6.5.4')],
    ]);
    const res = await provider.request('POST', '/v1/firmware/images', payload, headers);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      released_to: [w.customers.a.id],
      notes_en: 'Fixes the valve timing.',
    });
  });
});

describe('who sees which image', () => {
  let forA: FirmwareImage;
  let forAll: FirmwareImage;

  beforeAll(async () => {
    forA = (await uploadFirmware(provider, { version: '7.0.0', releasedTo: [w.customers.a.id] })).json();
    forAll = (await uploadFirmware(provider, { version: '7.1.0', releasedTo: 'all' })).json();
  });

  it("shows a customer's managers the images released to it or to all, and no one else's list", async () => {
    const ids = (list: FirmwareImage[]) => list.map((i) => i.id);
    for (const client of [cmA, smA]) {
      expect(ids(await listed(client))).toContain(forA.id);
      expect((await client.get(`/v1/firmware/images/${forA.id}`)).json()).toMatchObject({
        released_to: [w.customers.a.id],
      });
    }
    for (const client of [cmB, smB]) {
      const list = ids(await listed(client));
      expect(list).not.toContain(forA.id);
      expect(list).toContain(forAll.id);
      expect((await client.get(`/v1/firmware/images/${forA.id}`)).statusCode).toBe(403);
    }
    expect((await provider.get(`/v1/firmware/images/${forA.id}`)).json().released_to).toEqual([
      w.customers.a.id,
    ]);
  });

  it('tells others than the provider only whether their own customer is in a release list', async () => {
    const both = (
      await uploadFirmware(provider, { version: '7.2.0', releasedTo: [w.customers.a.id, w.customers.b.id] })
    ).json<FirmwareImage>();
    expect((await cmB.get(`/v1/firmware/images/${both.id}`)).json().released_to).toEqual([w.customers.b.id]);
    expect((await provider.get(`/v1/firmware/images/${both.id}`)).json().released_to).toHaveLength(2);
  });

  it('answers an unknown id with 404 to the provider and 403 to the others', async () => {
    const ghost = '/v1/firmware/images/00000000-0000-4000-8000-000000000000';
    expect((await provider.get(ghost)).statusCode).toBe(404);
    expect((await cmA.get(ghost)).statusCode).toBe(403);
  });

  it('filters by model and status', async () => {
    const twoInches = await listed(provider, '?model=two_inches_v1');
    expect(twoInches.every((i) => i.models.includes('two_inches_v1'))).toBe(true);
    expect(twoInches.map((i) => i.version)).toContain('1.0.1');
    expect(await listed(provider, '?status=withdrawn')).toEqual([]);
  });

  it('counts the flowboxes on each image within the caller’s scope', async () => {
    const zoneIn = async (siteId: string) => {
      const [building] = await t.db
        .insert(buildings)
        .values({ ...buildingRow(), siteId })
        .returning();
      const [zone] = await t.db
        .insert(zones)
        .values({ buildingId: building!.id, ...zoneRow() })
        .returning();
      return zone!.id;
    };
    const [a1, a2, b1] = [
      await zoneIn(w.sites.a1.id),
      await zoneIn(w.sites.a2.id),
      await zoneIn(w.sites.b1.id),
    ];
    await t.db.insert(flowboxes).values([
      {
        serial: 'FW-COUNT-1',
        zoneId: a1,
        pairingState: 'ready',
        model: 'one_inch_v1',
        firmwareVersion: '7.1.0',
      },
      {
        serial: 'FW-COUNT-2',
        zoneId: a2,
        pairingState: 'ready',
        model: 'one_inch_v1',
        firmwareVersion: '7.1.0',
      },
      {
        serial: 'FW-COUNT-3',
        zoneId: b1,
        pairingState: 'ready',
        model: 'one_inch_v1',
        firmwareVersion: '7.1.0',
      },
      // Another model on the same version runs another image.
      {
        serial: 'FW-COUNT-4',
        zoneId: a1,
        pairingState: 'ready',
        model: 'two_inches_v1',
        firmwareVersion: '7.1.0',
      },
    ]);
    const count = async (client: ApiClient) =>
      (await client.get(`/v1/firmware/images/${forAll.id}`)).json<FirmwareImage>().installed_count;
    expect(await count(provider)).toBe(3);
    expect(await count(cmA)).toBe(2);
    expect(await count(smA)).toBe(1);
    expect(await count(cmB)).toBe(1);
  });
});

describe('changing an image', () => {
  it('releases, deprecates and withdraws, each in the activity log; a withdrawn image stays withdrawn', async () => {
    const image = (
      await uploadFirmware(provider, { version: '8.0.0', releasedTo: 'all' })
    ).json<FirmwareImage>();
    const url = `/v1/firmware/images/${image.id}`;
    const eventsOf = async () =>
      (await t.db.select().from(events).where(eq(events.objectId, image.id))).sort(
        (a, b) => a.createdAt.getTime() - b.createdAt.getTime(),
      );

    t.clock.advance(1000);
    const released = await provider.patch(url, { released_to: [w.customers.b.id], notes_en: 'Fixes' });
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json()).toMatchObject({ released_to: [w.customers.b.id], notes_en: 'Fixes' });
    expect((await cmA.get(url)).statusCode).toBe(403);
    t.clock.advance(1000);
    expect((await provider.patch(url, { status: 'deprecated' })).json().status).toBe('deprecated');
    expect((await cmB.get(url)).json().status).toBe('deprecated');
    t.clock.advance(1000);
    expect((await provider.patch(url, { status: 'withdrawn' })).json().status).toBe('withdrawn');
    expect((await cmB.get(url)).statusCode).toBe(403);
    expect((await listed(cmB)).map((i) => i.id)).not.toContain(image.id);
    expect((await listed(provider, '?status=withdrawn')).map((i) => i.id)).toEqual([image.id]);

    const log = (await eventsOf()).map((e) => [e.actionName, e.changedFields]);
    expect(log).toEqual([
      ['created', []],
      ['updated', ['notes_en', 'released_to']],
      ['deprecated', ['status']],
      ['withdrawn', ['status']],
    ]);

    const before = await rows();
    const back = await provider.patch(url, { status: 'active' });
    expect(back.statusCode).toBe(409);
    expect(back.json().code).toBe('errors.firmware_withdrawn');
    expect((await cmA.patch(url, { status: 'deprecated' })).statusCode).toBe(403);
    expect((await provider.patch(url, { status: 'gone' })).statusCode).toBe(400);
    expect(await rows()).toEqual(before);
  });

  // Two instances share one PostgreSQL: a change of status read before a withdrawal committed must
  // not bring the image back (PGlite runs one transaction at a time: nothing races there).
  it.skipIf(!process.env.FLOWBOX_TEST_PG)(
    'keeps a withdrawn image withdrawn when a change of status races the withdrawal',
    async () => {
      const image = (await uploadFirmware(provider, { version: '8.0.9' })).json<FirmwareImage>();
      const url = `/v1/firmware/images/${image.id}`;
      expect((await provider.patch(url, { status: 'deprecated' })).statusCode).toBe(200);
      const waiting = async () => {
        const query = sql`SELECT count(*)::int AS n FROM pg_stat_activity
                          WHERE wait_event_type = 'Lock' AND datname = current_database()`;
        return ((await t.db.execute(query)) as unknown as { rows: { n: number }[] }).rows[0]!.n;
      };
      // Another transaction holds the image's row while both changes arrive, the withdrawal first.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let holding!: () => void;
      const held = new Promise<void>((resolve) => (holding = resolve));
      const holder = t.db.transaction(async (tx) => {
        await tx.select().from(firmwareImages).where(eq(firmwareImages.id, image.id)).for('update');
        holding();
        await released;
      });
      await held;
      const withdraw = provider.patch(url, { status: 'withdrawn' });
      await vi.waitFor(async () => expect(await waiting()).toBe(1), { timeout: 10_000, interval: 50 });
      const revive = provider.patch(url, { status: 'active' });
      await vi.waitFor(async () => expect(await waiting()).toBe(2), { timeout: 10_000, interval: 50 });
      release();
      await holder;
      expect((await withdraw).statusCode).toBe(200);
      const late = await revive;
      expect([late.statusCode, late.json().code]).toEqual([409, 'errors.firmware_withdrawn']);
      expect((await provider.get(url)).json().status).toBe('withdrawn');
    },
  );
});

function buildingRow() {
  const body = buildingBody();
  return {
    name: 'Counted',
    type: 'office' as const,
    address: body.address,
    city: body.city,
    zipCode: body.zipCode,
    country: body.country,
    timezone: body.timezone,
    volumeUnit: 'm3' as const,
    currency: 'EUR' as const,
    firstDayOfWeek: 'monday' as const,
    weekend: ['saturday' as const, 'sunday' as const],
  };
}

function zoneRow() {
  const body = zoneBody();
  return {
    name: String(body.name),
    profile: 'sanitary' as const,
    flowboxModel: 'one_inch_v1' as const,
    waterTemperature: 'cold' as const,
  };
}
