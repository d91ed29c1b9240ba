import { randomBytes, randomUUID } from 'node:crypto';
import {
  FIRMWARE_ACTIVE_STATES,
  FIRMWARE_DOWNLOAD_ATTEMPTS,
  FIRMWARE_URL_TTL_S,
  type FirmwareImage,
} from '@flowbox/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitKey } from '../http/rate-limit.ts';
import { downloadRateKey } from './download.routes.ts';
import { firmwareUpdates, firmwareUpdateSteps } from '../db/schema.ts';
import { createZones, pairDirectly, type PairedDevice } from '../telemetry/testing.ts';
import { createTestApp, createWorld, loginAs, type TestApp } from '../test/harness.ts';
import { signDownloadToken, verifyDownloadToken } from './download-token.ts';
import { sha256Of, uploadFirmware } from './catalogue.testing.ts';
import { insertImage, updateWithDownload } from './testing.ts';

let t: TestApp;
let device: PairedDevice;
let other: PairedDevice;
let image: FirmwareImage;
const bytes = randomBytes(700_000);

beforeAll(async () => {
  t = await createTestApp();
  await createWorld(t.db);
  const [zone] = await createZones(t.db, 'Europe/Paris');
  [device, other] = [await pairDirectly(t.db, zone!), await pairDirectly(t.db, zone!)];
  const provider = await loginAs(t.app, 'provider@test.io');
  image = (await uploadFirmware(provider, { version: '2.5.0', bytes })).json();
});
afterAll(() => t.close());

/** An update of the device to the image, in `state`, and its download URL. */
async function updateOf(
  flowbox: PairedDevice,
  state: 'requested' | 'started' | 'success' | 'cancelled' = 'started',
) {
  const now = t.clock.now();
  // One unfinished update a flowbox: the earlier tests' end here.
  await t.db
    .update(firmwareUpdates)
    .set({ state: 'cancelled', finishedAt: now })
    .where(
      and(
        eq(firmwareUpdates.flowboxId, flowbox.flowboxId),
        inArray(firmwareUpdates.state, [...FIRMWARE_ACTIVE_STATES]),
      ),
    );
  return updateWithDownload(t, flowbox, image, state);
}

const basic = (serial: string, secret: string) =>
  `Basic ${Buffer.from(`${serial}:${secret}`).toString('base64')}`;

function download(
  url: string,
  as: PairedDevice | null,
  headers: Record<string, string> = {},
  secret = as?.password,
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'GET',
    url,
    headers: { ...(as ? { authorization: basic(as.serial, secret!) } : {}), ...headers },
  });
}

describe("a device's firmware download", () => {
  it('serves the whole image to its device, with the sha256 as ETag', async () => {
    const { url } = await updateOf(device);
    const res = await download(url, device);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.rawPayload.equals(bytes)).toBe(true);
    expect(res.headers).toMatchObject({
      etag: `"${sha256Of(bytes)}"`,
      'accept-ranges': 'bytes',
      'content-length': String(bytes.length),
      'content-type': 'application/octet-stream',
    });
  });

  it('resumes an interrupted download with ranges (206), and answers the whole image when If-Range no longer matches', async () => {
    const { url } = await updateOf(other);
    const first = await download(url, other, { range: 'bytes=0-299999' });
    expect(first.statusCode).toBe(206);
    expect(first.headers['content-range']).toBe(`bytes 0-299999/${bytes.length}`);
    const rest = await download(url, other, { range: 'bytes=300000-', 'if-range': `"${image.sha256}"` });
    expect(rest.statusCode).toBe(206);
    expect(rest.headers['content-range']).toBe(`bytes 300000-699999/${bytes.length}`);
    expect(Buffer.concat([first.rawPayload, rest.rawPayload]).equals(bytes)).toBe(true);
    const changed = await download(url, other, { range: 'bytes=300000-', 'if-range': '"another-file"' });
    expect(changed.statusCode).toBe(200);
    expect(changed.rawPayload.length).toBe(bytes.length);
    expect((await download(url, other, { range: `bytes=${bytes.length}-` })).statusCode).toBe(416);
  });

  it('refuses missing or wrong credentials with 401 and a Basic challenge', async () => {
    const { url } = await updateOf(device, 'requested');
    for (const res of [await download(url, null), await download(url, device, {}, 'not-its-secret')]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('errors.device_auth_failed');
      expect(res.headers['www-authenticate']).toBe('Basic realm="flowbox firmware", charset="UTF-8"');
    }
  });

  it("refuses another device's valid credentials with this token and a tampered token (403), an expired one (410)", async () => {
    const { url, token } = await updateOf(device, 'requested');
    const foreign = await download(url, other);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.headers['www-authenticate']).toBeUndefined();
    const mac = token.slice(token.lastIndexOf('.') + 1);
    const tampered = `${token.slice(0, token.lastIndexOf('.') + 1)}${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`;
    expect((await download(`/v1/firmware/download/${tampered}`, device)).statusCode).toBe(403);
    expect((await download('/v1/firmware/download/garbage', device)).statusCode).toBe(403);
    // Genuine but past its lifetime: the update's download window is over, as after a timeout.
    t.clock.advance(FIRMWARE_URL_TTL_S * 1000 + 1000);
    const expired = await download(url, device);
    expect([expired.statusCode, expired.json().code]).toEqual([410, 'errors.firmware_download_gone']);
    // Another device's expired token is still no business of this one.
    expect((await download(url, other)).statusCode).toBe(403);
  });

  it('answers 410 once the update is finished or cancelled, or gone with its flowbox', async () => {
    for (const state of ['success', 'cancelled'] as const) {
      const { url } = await updateOf(device, state);
      const res = await download(url, device);
      expect(res.statusCode).toBe(410);
      expect(res.json().code).toBe('errors.firmware_download_gone');
    }
    const { id, url } = await updateOf(device);
    await t.db.delete(firmwareUpdates).where(eq(firmwareUpdates.id, id));
    expect((await download(url, device)).statusCode).toBe(410);
  });

  it(`blocks the update after ${FIRMWARE_DOWNLOAD_ATTEMPTS} downloads: block_download_failed, then 410`, async () => {
    const { id, url } = await updateOf(device);
    // A HEAD asks about the image without downloading it: it is not counted.
    const head = await t.app.inject({
      method: 'HEAD',
      url,
      headers: { authorization: basic(device.serial, device.password) },
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(bytes.length));
    for (let i = 0; i < FIRMWARE_DOWNLOAD_ATTEMPTS; i++)
      expect((await download(url, device, { range: `bytes=${i * 1000}-` })).statusCode).toBe(206);
    expect((await download(url, device, { range: 'bytes=9000-' })).statusCode).toBe(410);
    const [update] = await t.db.select().from(firmwareUpdates).where(eq(firmwareUpdates.id, id));
    expect(update).toMatchObject({
      state: 'block_download_failed',
      downloadAttempts: FIRMWARE_DOWNLOAD_ATTEMPTS + 1,
    });
    const steps = await t.db.select().from(firmwareUpdateSteps).where(eq(firmwareUpdateSteps.updateId, id));
    expect(steps.map((s) => s.state)).toContain('block_download_failed');
  });

  it('counts downloads by outcome and the bytes served in /metrics', async () => {
    const scrape = await t.services.metrics.scrape();
    const value = (line: string) => Number(new RegExp(`^${line} (\\d+)`, 'm').exec(scrape)?.[1]);
    expect(value('flowbox_firmware_downloads_total\\{outcome="whole"\\}')).toBeGreaterThanOrEqual(2);
    expect(value('flowbox_firmware_downloads_total\\{outcome="resumed"\\}')).toBeGreaterThanOrEqual(3);
    expect(value('flowbox_firmware_downloads_total\\{outcome="unauthorized"\\}')).toBe(2);
    expect(value('flowbox_firmware_downloads_total\\{outcome="forbidden"\\}')).toBe(4);
    expect(value('flowbox_firmware_downloads_total\\{outcome="gone"\\}')).toBe(5);
    expect(value('flowbox_firmware_download_bytes_total')).toBeGreaterThanOrEqual(3 * bytes.length);
  });
});

describe('downloads and the rate limit', () => {
  it("counts a download against its device, not its address: a fleet behind one NAT keeps the users' budget", async () => {
    const secret = t.services.context.config.jwtSecret;
    const verify = (token: string) => verifyDownloadToken(token, secret, new Date());
    const tokenFor = (serial: string) =>
      signDownloadToken(
        { serial, imageId: randomUUID(), updateId: randomUUID(), expiresAt: new Date(Date.now() + 60_000) },
        secret,
      );
    const request = (serial: string, credentials?: string) => ({
      ip: '203.0.113.7',
      url: `/v1/firmware/download/${tokenFor(serial)}`,
      headers: credentials ? { authorization: credentials } : {},
    });
    const authenticate = async (serial: string, secret: string) => serial === 'FBX-1' && secret === 'right';
    const key = (req: ReturnType<typeof request>, verifier = verify) =>
      downloadRateKey(req, verifier, authenticate);
    expect(await key(request('FBX-1', basic('FBX-1', 'right')))).toBe('device:FBX-1');
    // Not its device until its credentials are checked: the address's budget, as any request.
    expect(await key(request('FBX-1'))).toBeUndefined();
    expect(await key(request('FBX-1', basic('FBX-1', 'wrong')))).toBeUndefined();
    expect(await key(request('FBX-2', basic('FBX-1', 'right')))).toBeUndefined();
    expect(await key({ ...request('FBX-1', basic('FBX-1', 'right')), url: '/v1/users/me' })).toBeUndefined();
    // A serial only a forged or garbled token names counts against the address.
    expect(
      await key({
        ...request('FBX-1', basic('FBX-1', 'right')),
        url: '/v1/firmware/download/f1.FBX-9.a.b.1.x',
      }),
    ).toBeUndefined();
    expect(await key(request('FBX-1', basic('FBX-1', 'right')), () => null)).toBeUndefined();
    expect(rateLimitKey(request('FBX-1'))).toBe('203.0.113.7');

    const limited = await createTestApp({ rateLimitPerMinute: 3 });
    try {
      const [zone] = await createZones(limited.db, 'Europe/Paris');
      const fleet = await Promise.all(Array.from({ length: 4 }, () => pairDirectly(limited.db, zone!)));
      const limitedSecret = limited.services.context.config.jwtSecret;
      const fetchAs = (d: PairedDevice, token: string) =>
        limited.app.inject({
          method: 'GET',
          url: `/v1/firmware/download/${token}`,
          headers: { authorization: basic(d.serial, d.password) },
        });
      const genuine = await Promise.all(
        fleet.map((d) =>
          fetchAs(
            d,
            signDownloadToken(
              {
                serial: d.serial,
                imageId: randomUUID(),
                updateId: randomUUID(),
                expiresAt: new Date(Date.now() + 60_000),
              },
              limitedSecret,
            ),
          ),
        ),
      );
      expect(genuine.map((a) => a.statusCode).filter((s) => s === 429)).toEqual([]);
      // Made-up tokens (any serial in the header) share the address's budget: the fourth is refused.
      const forged = [];
      for (const d of fleet) forged.push((await fetchAs(d, 'not-a-token')).statusCode);
      expect(forged.at(-1)).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it("leaves a device's budget to the device: a stranger holding its URL drains only its own address's", async () => {
    const limited = await createTestApp({ rateLimitPerMinute: 3 });
    try {
      const [zone] = await createZones(limited.db, 'Europe/Paris');
      const owner = await pairDirectly(limited.db, zone!);
      const limitedImage = await insertImage(limited.db, { version: '2.6.0' });
      const { url } = await updateWithDownload(limited, owner, limitedImage, 'requested');
      const fetch = (remoteAddress: string, authorization?: string) =>
        limited.app.inject({
          method: 'GET',
          url,
          remoteAddress,
          headers: authorization ? { authorization } : {},
        });
      // A stranger's requests with the URL: none, the device's serial with a guessed secret, another's.
      const stranger = [
        await fetch('198.51.100.9'),
        await fetch('198.51.100.9', basic(owner.serial, 'a'.repeat(owner.password.length))),
        await fetch('198.51.100.9', basic(owner.serial, 'guess')),
        await fetch('198.51.100.9'),
      ].map((res) => res.statusCode);
      expect(stranger).toEqual([401, 401, 401, 429]);
      // From another address each, as many as the budget: still not the device's bucket.
      for (const address of ['198.51.100.10', '198.51.100.11', '198.51.100.12', '198.51.100.13'])
        expect((await fetch(address)).statusCode).toBe(401);
      const own = await fetch('203.0.113.50', basic(owner.serial, owner.password));
      expect(own.statusCode, own.body).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
