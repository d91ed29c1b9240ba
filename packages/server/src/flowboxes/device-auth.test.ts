import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertImage, updateWithDownload } from '../firmware/testing.ts';
import type { DeviceMessaging } from '../mqtt/messaging.ts';
import { createZones, pairDirectly, type PairedDevice } from '../telemetry/testing.ts';
import { createTestApp, createWorld, type TestApp } from '../test/harness.ts';
import { deviceAuthenticator } from './device-auth.ts';
import { startMessaging } from './testing.ts';

/*
 * Device credentials come from anyone who reaches the broker or the firmware download: a serial or
 * secret no device holds (U+0000, which PostgreSQL cannot compare, other control characters, text
 * far longer than any serial or secret) is refused as wrong credentials before any query, by the
 * broker and the download alike, and never fails the request.
 */

const HOSTILE = [
  'a\u0000b',
  '\u0000',
  'FB-1\u0000',
  '\u0001',
  'FB\u001f1',
  'FB\u007f1',
  'FB\n1',
  '\ud800',
  'FB-\udc00',
  '',
  ' ',
  'x'.repeat(10_000),
  'FB.1',
  "FB-1' OR '1'='1",
];

let t: TestApp;
let device: PairedDevice;
let messaging: DeviceMessaging & { port: number };
let downloadUrl: string;

beforeAll(async () => {
  t = await createTestApp();
  await createWorld(t.db);
  const [zone] = await createZones(t.db, 'Europe/Paris');
  device = await pairDirectly(t.db, zone!);
  const image = await insertImage(t.db, { version: '9.9.9' });
  ({ url: downloadUrl } = await updateWithDownload(t, device, image));
  messaging = await startMessaging(t);
});
afterAll(async () => {
  await messaging?.close();
  await t?.close();
});

describe('device credentials no device holds', () => {
  it('are unknown or wrong to the authenticator, whichever role, without an error', async () => {
    const authenticate = deviceAuthenticator(t.db);
    for (const role of ['device', 'bootstrap'] as const) {
      for (const hostile of HOSTILE) {
        await expect(
          authenticate({ role, serial: hostile }, device.password),
          JSON.stringify(hostile),
        ).resolves.toBe('unknown');
        await expect(
          authenticate({ role, serial: device.serial }, hostile),
          JSON.stringify(hostile),
        ).resolves.toBe('wrong');
      }
    }
    await expect(authenticate({ role: 'device', serial: device.serial }, device.password)).resolves.toBe(
      'ok',
    );
  });

  it('answer a firmware download 401 with its challenge', async () => {
    const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;
    const authorizations = [
      ...HOSTILE.flatMap((hostile) => [
        basic(`${hostile}:${device.password}`),
        basic(`${device.serial}:${hostile}`),
        basic(`${hostile}:${hostile}`),
      ]),
      basic(`${device.serial}\u0000:${device.password}`),
      `Basic ${Buffer.from([0xff, 0xfe, 0x3a, 0x00]).toString('base64')}`,
      `Basic ${'QUFB'.repeat(4_000)}`,
    ];
    const failures: string[] = [];
    for (const authorization of authorizations) {
      const res = await t.app.inject({ method: 'GET', url: downloadUrl, headers: { authorization } });
      if (res.statusCode !== 401 || !res.headers['www-authenticate'])
        failures.push(`${authorization.slice(0, 80)} → ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
    const genuine = await t.app.inject({
      method: 'GET',
      url: downloadUrl,
      headers: { authorization: basic(`${device.serial}:${device.password}`) },
    });
    expect(genuine.statusCode).toBe(200);
  });

  it('are refused by the broker, which goes on serving devices', async () => {
    const url = `mqtt://127.0.0.1:${messaging.port}`;
    const refusedBefore = counted(messaging);
    const attempts: { username: string; password: string | Buffer }[] = [
      ...HOSTILE.flatMap((hostile) => [
        { username: hostile, password: device.password },
        { username: `bootstrap.${hostile}`, password: device.password },
        { username: device.serial, password: hostile },
      ]),
      { username: device.serial, password: Buffer.from([0, 0xff, 0xfe, 0]) },
      { username: device.serial, password: Buffer.alloc(60_000, 0x41) },
    ];
    for (const { username, password } of attempts) {
      const client = mqtt.connect(url, {
        username,
        password: password as string,
        clientId: device.serial,
        reconnectPeriod: 0,
        connectTimeout: 3_000,
      });
      const outcome = await new Promise<string>((resolve) => {
        client.once('connect', () => resolve('connected'));
        client.once('error', () => resolve('refused'));
        client.once('close', () => resolve('refused'));
      });
      await client.endAsync(true);
      expect(
        outcome,
        JSON.stringify({ username: username.slice(0, 40), password: String(password).slice(0, 40) }),
      ).toBe('refused');
    }
    expect(counted(messaging)).toBeGreaterThan(refusedBefore);
    const genuine = await mqtt.connectAsync(url, {
      username: device.serial,
      password: device.password,
      clientId: device.serial,
      reconnectPeriod: 0,
    });
    await genuine.endAsync(true);
  });
});

/** Connections the broker refused, whatever the cause. */
function counted(m: DeviceMessaging): number {
  const c = m.brokerCounters!;
  return c.refused_unknown_identity + c.refused_unknown_serial + c.refused_wrong_secret;
}
