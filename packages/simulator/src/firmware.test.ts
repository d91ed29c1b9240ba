import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FIRMWARE_DOWNLOAD_ATTEMPTS, firmwareFileName, type DeviceEvent } from '@flowbox/shared';
import { ManualClock } from './clock.ts';
import type { ZoneSpec } from './consumption.ts';
import { createDevice, type DeviceOptions, type SimulatedFlowbox } from './device.ts';
import { createFleet } from './fleet.ts';
import { serialsCarrying, type FirmwareFault } from './firmware-faults.ts';
import {
  DeviceObserver,
  randomSecret,
  startAedes,
  testBrokers,
  uniqueSerial,
  until,
  type TestBroker,
} from './test-helpers.ts';

const NIGHT = Date.parse('2026-01-05T02:00:00Z');
const office: ZoneSpec = { profile: 'office', timezone: 'Europe/Paris', water_points: [] };
const OLD_VERSION = '2.4.0';
const NEW_VERSION = '2.5.0';
/** 256 KiB: several chunks, so progress, cuts and corruption land mid-image. */
const IMAGE = randomBytes(256 * 1024);
const SHA256 = createHash('sha256').update(IMAGE).digest('hex');
const ETAG = `"${SHA256}"`;

type SeenRequest = { range: string | undefined; ifRange: string | undefined; authorized: boolean };

/**
 * The server's download endpoint, reduced to what the device relies on (docs/firmware.md
 * "Download"): HTTP Basic with the device's serial and secret, the image with its sha256 as ETag,
 * and `Range: bytes=N-` answered 206 when `If-Range` matches.
 */
class ImageServer {
  readonly requests: SeenRequest[] = [];
  /**
   * Connections the device closed. A finished answer leaves its connection open (keep-alive): only
   * a device that drops the download closes one while the server runs.
   */
  dropped = 0;
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  /**
   * `devices`: each device's serial and secret. From request `goneFrom` on (1 is the first), the
   * answer is 410, as from a server that has ended the update.
   */
  static async start(
    devices: ReadonlyArray<[serial: string, secret: string]>,
    goneFrom = Number.POSITIVE_INFINITY,
  ): Promise<ImageServer> {
    const expected = new Set(
      devices.map(([serial, secret]) => `Basic ${Buffer.from(`${serial}:${secret}`).toString('base64')}`),
    );
    let self: ImageServer | null = null;
    const server = createServer((request, response) => {
      const authorized = expected.has(request.headers.authorization ?? '');
      const range = request.headers.range;
      const ifRange = request.headers['if-range']?.toString();
      self?.requests.push({ range, ifRange, authorized });
      if (!authorized) {
        response.writeHead(401, { 'www-authenticate': 'Basic' }).end();
        return;
      }
      if ((self?.requests.length ?? 0) >= goneFrom) {
        response.writeHead(410).end();
        return;
      }
      const start =
        range && (ifRange === undefined || ifRange === ETAG) ? Number(/^bytes=(\d+)-$/.exec(range)?.[1]) : 0;
      if (!(start < IMAGE.length)) {
        response.writeHead(416, { 'content-range': `bytes */${IMAGE.length}` }).end();
        return;
      }
      const body = IMAGE.subarray(start);
      response.writeHead(start > 0 ? 206 : 200, {
        etag: ETAG,
        'content-length': body.length,
        ...(start > 0 ? { 'content-range': `bytes ${start}-${IMAGE.length - 1}/${IMAGE.length}` } : {}),
      });
      response.end(body);
    });
    server.on('connection', (socket) =>
      socket.on('close', () => {
        if (self) self.dropped += 1;
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    self = new ImageServer(server, `http://127.0.0.1:${port}/v1/firmware/download/token`);
    return self;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

type FirmwareProgress = Extract<DeviceEvent, { type: 'firmware_progress' }>;

function updateCommand(images: ImageServer, fileName = firmwareFileName(['one_inch_v1'], NEW_VERSION)) {
  return {
    update_id: '7d3f0a52-8a6e-4d1b-9a3c-1f2e3d4c5b6a',
    version: NEW_VERSION,
    file_name: fileName,
    size: IMAGE.length,
    sha256: SHA256,
    url: images.url,
  };
}

function progress(observer: DeviceObserver): FirmwareProgress[] {
  return observer.of('events').filter((e): e is FirmwareProgress => e.type === 'firmware_progress');
}

/** The states reported, consecutive `started` events counted as one. */
function states(observer: DeviceObserver): string[] {
  return progress(observer)
    .map((p) => (p.reason ? `${p.state}:${p.reason}` : p.state))
    .filter((state, i, all) => state !== 'started' || all[i - 1] !== 'started');
}

function firmwareInState(observer: DeviceObserver): string | undefined {
  return observer.of('state').at(-1)?.versions.firmware;
}

describe.each(await testBrokers())(
  'a simulated flowbox updating its firmware on %s',
  (_name, available, startBroker) => {
    let broker: TestBroker;
    const started: Array<{ device: SimulatedFlowbox; observer: DeviceObserver; images: ImageServer }> = [];

    beforeAll(async () => {
      broker = await startBroker();
    });
    afterEach(async () => {
      for (const { device, observer, images } of started.splice(0)) {
        await device.stop();
        await observer.clearRetained();
        await observer.close();
        await images.close();
      }
    });
    afterAll(async () => {
      await broker?.close();
    });

    async function boot(
      firmwareFaults: FirmwareFault[] = [],
      server: { secret?: string; goneFrom?: number } = {},
      options: Partial<DeviceOptions> = {},
    ) {
      const clock = new ManualClock(NIGHT);
      const serial = uniqueSerial('fw');
      const secret = randomSecret();
      const images = await ImageServer.start([[serial, server.secret ?? secret]], server.goneFrom);
      const observer = await DeviceObserver.watch(broker.url, serial, () => clock.now());
      const device = createDevice({
        serial,
        brokerUrl: broker.url,
        credentials: { username: serial, password: secret },
        zone: office,
        clock,
        seed: 42,
        cleanSession: true,
        rebootDelayMs: 10,
        firmwareRetryDelayMs: 10,
        versions: { esp: '5.1.2', board: 'B3', firmware: OLD_VERSION },
        firmwareFaults,
        ...options,
      });
      started.push({ device, observer, images });
      await device.start();
      await observer.waitFor('state', () => observer.of('state').length > 0);
      return { device, observer, images };
    }

    it.skipIf(!available)(
      'downloads with its credentials, reports progress, reboots into the new version, done',
      async () => {
        const { observer, images } = await boot();
        const id = await observer.send('update_firmware', updateCommand(images));
        expect(await observer.waitForFinalAck(id)).toMatchObject({ result: 'done', reason: null });
        expect(observer.acksOf(id).map((a) => a.result)).toEqual(['accepted', 'done']);
        expect(states(observer)).toEqual(['requesting', 'started', 'downloaded', 'success']);
        expect(observer.of('events').map((e) => e.type)).toEqual([
          ...progress(observer)
            .filter((p) => p.state !== 'success')
            .map(() => 'firmware_progress'),
          'reboot',
          'firmware_progress',
        ]);
        expect(observer.of('events').find((e) => e.type === 'reboot')).toMatchObject({
          reason: 'firmware_update',
        });
        const downloading = progress(observer).filter((p) => p.state === 'started');
        for (const [i, p] of downloading.entries()) {
          const previous = downloading[i - 1];
          // At most every 5 % (the manual protocol clock never reaches the 10 s rule).
          if (previous)
            expect((p.progress_pct ?? 0) - (previous.progress_pct ?? 0)).toBeGreaterThanOrEqual(5);
        }
        expect(downloading.length).toBeGreaterThanOrEqual(2);
        expect(progress(observer).find((p) => p.state === 'downloaded')).toMatchObject({
          progress_pct: 100,
          bytes: IMAGE.length,
          update_id: updateCommand(images).update_id,
          version: NEW_VERSION,
        });
        expect(
          observer.of('presence').map((p) => (p.status === 'offline' ? `offline:${p.reason}` : p.status)),
        ).toEqual(['online', 'offline:reboot', 'online']);
        expect(observer.of('state').map((s) => s.versions.firmware)).toEqual([OLD_VERSION, NEW_VERSION]);
        expect(images.requests).toEqual([{ range: undefined, ifRange: undefined, authorized: true }]);
      },
    );

    it.skipIf(!available)(
      'refuses an image named for another model, or a bad command, without downloading',
      async () => {
        const { observer, images } = await boot();
        const id = await observer.send(
          'update_firmware',
          updateCommand(images, firmwareFileName(['two_inches_v1'], NEW_VERSION)),
        );
        expect(await observer.waitForFinalAck(id)).toMatchObject({
          result: 'refused',
          reason: 'invalid_params',
        });
        expect(observer.acksOf(id).map((a) => a.result)).toEqual(['accepted', 'refused']);
        expect(states(observer)).toEqual(['invalid_naming']);
        const unreadable = await observer.send('update_firmware', {
          ...updateCommand(images),
          sha256: 'abc',
        });
        expect(await observer.waitForFinalAck(unreadable)).toMatchObject({
          result: 'refused',
          reason: 'invalid_params',
        });
        expect(observer.acksOf(unreadable)).toHaveLength(1);
        expect(states(observer)).toEqual(['invalid_naming']);
        expect(images.requests).toEqual([]);
      },
    );

    it.skipIf(!available)(
      'refuses a corrupt image, downloads afresh until its attempts run out, then block_download_failed',
      async () => {
        const { observer, images } = await boot([{ kind: 'corrupt' }]);
        const id = await observer.send('update_firmware', updateCommand(images));
        expect(await observer.waitForFinalAck(id)).toMatchObject({
          result: 'refused',
          reason: 'hardware_fault',
        });
        // No `failed` while attempts remain: the server takes a device's `failed` as final.
        const attempt = ['requesting', 'started'];
        expect(states(observer)).toEqual([
          ...Array.from({ length: FIRMWARE_DOWNLOAD_ATTEMPTS }, () => attempt).flat(),
          'block_download_failed:checksum_mismatch',
        ]);
        expect(progress(observer).filter((p) => p.state === 'failed')).toEqual([]);
        // Each try is a fresh download of the whole image, never a resume of a bad one.
        expect(images.requests).toHaveLength(FIRMWARE_DOWNLOAD_ATTEMPTS);
        expect(images.requests.every((r) => r.range === undefined)).toBe(true);
        expect(observer.of('events').some((e) => e.type === 'reboot')).toBe(false);
        expect(firmwareInState(observer)).toBe(OLD_VERSION);
      },
    );

    it.skipIf(!available)('resumes a cut download from where it stopped, with If-Range', async () => {
      const cutAfter = 100_000;
      const { observer, images } = await boot([{ kind: 'interrupted', afterBytes: cutAfter }]);
      const id = await observer.send('update_firmware', updateCommand(images));
      expect(await observer.waitForFinalAck(id)).toMatchObject({ result: 'done' });
      expect(images.requests).toEqual([
        { range: undefined, ifRange: undefined, authorized: true },
        { range: `bytes=${cutAfter}-`, ifRange: ETAG, authorized: true },
        { range: `bytes=${2 * cutAfter}-`, ifRange: ETAG, authorized: true },
      ]);
      expect(images.dropped).toBe(2);
      // A resume is not a new request for the image: one `requesting`, and the checksum held.
      expect(states(observer)).toEqual(['requesting', 'started', 'downloaded', 'success']);
      const bytes = progress(observer).flatMap((p) => (p.state === 'started' ? [p.bytes ?? 0] : []));
      expect(bytes).toEqual([...bytes].sort((a, b) => a - b));
      expect(firmwareInState(observer)).toBe(NEW_VERSION);
    });

    it.skipIf(!available)('gives up with block_download_failed when every try is cut', async () => {
      const cutAfter = 20_000;
      const { observer, images } = await boot([{ kind: 'interrupted', afterBytes: cutAfter }]);
      const id = await observer.send('update_firmware', updateCommand(images));
      expect(await observer.waitForFinalAck(id)).toMatchObject({
        result: 'refused',
        reason: 'hardware_fault',
      });
      expect(images.requests.map((r) => r.range)).toEqual([
        undefined,
        ...Array.from({ length: FIRMWARE_DOWNLOAD_ATTEMPTS - 1 }, (_, i) => `bytes=${(i + 1) * cutAfter}-`),
      ]);
      expect(states(observer)).toEqual(['requesting', 'started', 'block_download_failed:download_failed']);
    });

    it.skipIf(!available)('fails without retrying when the server refuses its credentials', async () => {
      const { observer, images } = await boot([], { secret: randomSecret() });
      const id = await observer.send('update_firmware', updateCommand(images));
      expect(await observer.waitForFinalAck(id)).toMatchObject({
        result: 'refused',
        reason: 'hardware_fault',
      });
      expect(states(observer)).toEqual(['requesting', 'failed:download_failed']);
      expect(images.requests).toEqual([{ range: undefined, ifRange: undefined, authorized: false }]);
    });

    it.skipIf(!available)('stops without a word when the server says the update is over (410)', async () => {
      const { observer, images } = await boot([{ kind: 'interrupted', afterBytes: 50_000 }], {
        goneFrom: 2,
      });
      const id = await observer.send('update_firmware', updateCommand(images));
      expect(await observer.waitForFinalAck(id)).toMatchObject({
        result: 'refused',
        reason: 'hardware_fault',
      });
      expect(states(observer)).toEqual(['requesting', 'started']);
      expect(images.requests).toHaveLength(2);
      // Over: the next update runs (and meets the 410 at once).
      const next = await observer.send('update_firmware', updateCommand(images));
      await observer.waitForFinalAck(next);
      expect(observer.acksOf(next).map((a) => a.result)).toEqual(['accepted', 'refused']);
      expect(images.requests).toHaveLength(3);
    });

    it.skipIf(!available)(
      'reports a failed install that rolled back, and keeps its old version',
      async () => {
        const { observer, images } = await boot([{ kind: 'rollback' }]);
        const id = await observer.send('update_firmware', updateCommand(images));
        expect(await observer.waitForFinalAck(id)).toMatchObject({
          result: 'refused',
          reason: 'hardware_fault',
        });
        expect(states(observer)).toEqual(['requesting', 'started', 'downloaded', 'failed:rolled_back']);
        expect(observer.of('events').find((e) => e.type === 'reboot')).toMatchObject({
          reason: 'firmware_update',
        });
        expect(observer.of('state').map((s) => s.versions.firmware)).toEqual([OLD_VERSION, OLD_VERSION]);
      },
    );

    it.skipIf(!available)(
      'goes silent mid-download: no more progress, no final ack, not even to the retried command',
      async () => {
        const { device, observer, images } = await boot([{ kind: 'silent', atPct: 50 }]);
        const command = updateCommand(images);
        const id = await observer.send('update_firmware', command);
        await until('the download dropped', () => images.dropped === 1);
        await observer.send('update_firmware', command, { id });
        const another = await observer.send('update_firmware', command);
        // Everything queued before this event has arrived once it has: the device said nothing more.
        device.operateValveByHand('closed');
        await observer.waitFor('the hand event', () =>
          observer.of('events').some((e) => e.type === 'valve_operated_by_hand'),
        );
        await observer.waitForFinalAck(another);
        expect(states(observer)).toEqual(['requesting', 'started']);
        expect(progress(observer).every((p) => (p.progress_pct ?? 0) < 50)).toBe(true);
        expect(observer.acksOf(id).map((a) => a.result)).toEqual(['accepted']);
        // Still stuck in the update: another one is refused.
        expect(observer.acksOf(another).at(-1)).toMatchObject({ result: 'refused', reason: 'busy' });
        expect(images.requests).toHaveLength(1);
        expect(firmwareInState(observer)).toBe(OLD_VERSION);
      },
    );

    it.skipIf(!available)(
      'refuses a second update while one runs, and keeps to its download rate cap',
      async () => {
        const bytesPerS = 128 * 1024;
        const { observer, images } = await boot([{ kind: 'slow', bytesPerS }]);
        const startedAt = performance.now();
        const first = await observer.send('update_firmware', updateCommand(images));
        await observer.waitFor('started', () => states(observer).includes('started'));
        const second = await observer.send('update_firmware', {
          ...updateCommand(images),
          update_id: '0b9f5c1e-3f2a-4c61-9a57-2d1c5b8e7f10',
        });
        expect(await observer.waitForFinalAck(second)).toMatchObject({ result: 'refused', reason: 'busy' });
        expect(await observer.waitForFinalAck(first)).toMatchObject({ result: 'done' });
        // The cap holds back each read until the bytes before it are due: all but the last read
        // (64 KiB at most, a socket read) come at the capped rate.
        const capped = ((IMAGE.length - 64 * 1024) / bytesPerS) * 1000;
        expect(performance.now() - startedAt).toBeGreaterThanOrEqual(capped);
        expect(images.requests).toHaveLength(1);
      },
    );

    it.skipIf(!available)('never runs a repeated command id twice', async () => {
      const { observer, images } = await boot([{ kind: 'slow', bytesPerS: 1024 * 1024 }]);
      const command = updateCommand(images);
      const id = await observer.send('update_firmware', command);
      await observer.waitFor('started', () => states(observer).includes('started'));
      await observer.send('update_firmware', command, { id });
      await observer.waitFor('the repeated accepted', () => observer.acksOf(id).length === 2);
      await observer.waitForFinalAck(id);
      await observer.send('update_firmware', command, { id });
      await observer.waitFor('the repeated done', () => observer.acksOf(id).length === 4);
      expect(observer.acksOf(id).map((a) => a.result)).toEqual(['accepted', 'accepted', 'done', 'done']);
      expect(states(observer)).toEqual(['requesting', 'started', 'downloaded', 'success']);
      expect(observer.of('events').filter((e) => e.type === 'reboot')).toHaveLength(1);
      expect(images.requests).toHaveLength(1);
    });
  },
);

describe('a fleet updating its firmware', () => {
  it('gives a fault to the share of its devices its seed picks, and to those only', async () => {
    const broker = await startAedes();
    const devices = Array.from({ length: 4 }, (_, i) => {
      const serial = uniqueSerial(`fleet${i}`);
      return { serial, credentials: { username: serial, password: randomSecret() } };
    });
    const images = await ImageServer.start(devices.map((d) => [d.serial, d.credentials.password]));
    const fleet = createFleet({
      brokerUrl: broker.url,
      clock: new ManualClock(NIGHT),
      seed: 11,
      tickMs: 3_600_000,
      devices: devices.map((d) => ({ ...d, zone: office, cleanSession: true, rebootDelayMs: 10 })),
      firmwareFaults: [{ fault: { kind: 'rollback' }, share: 0.5 }],
    });
    const observers = await Promise.all(devices.map((d) => DeviceObserver.watch(broker.url, d.serial)));
    try {
      await fleet.start();
      const ends = await Promise.all(
        observers.map(async (observer) => {
          const id = await observer.send('update_firmware', updateCommand(images));
          await observer.waitForFinalAck(id);
          return states(observer).at(-1);
        }),
      );
      const rolledBack = serialsCarrying(
        devices.map((d) => d.serial),
        0.5,
        11,
        'rollback',
      );
      expect(ends).toEqual(devices.map((d) => (rolledBack.has(d.serial) ? 'failed:rolled_back' : 'success')));
    } finally {
      await fleet.stop();
      for (const observer of observers) {
        await observer.clearRetained();
        await observer.close();
      }
      await images.close();
      await broker.close();
    }
  });
});
