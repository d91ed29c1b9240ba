import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from './clock.ts';
import type { ZoneSpec } from './consumption.ts';
import { createDevice, REMEMBERED_COMMANDS, REPLAY_WINDOW, type DeviceFootprint } from './device.ts';
import { DeviceObserver, startAedes, uniqueSerial, until, type TestBroker } from './test-helpers.ts';

/*
 * Issue #13 item 1: a device whose session was taken over (another client with its client id) and
 * which received an autotest grew to gigabytes. Whatever happens to its connection, everything a
 * device holds stays under a fixed bound: counted here, not timed.
 */

const MINUTE = 60_000;
const NIGHT = Date.parse('2026-01-05T02:00:00Z');
const office: ZoneSpec = {
  profile: 'office',
  timezone: 'Europe/Paris',
  water_points: [{ type: 'toilet', count: 4 }],
};
const BUFFER_LIMIT = 20;

/** The fixed bounds of a device's footprint, given the listeners it has once connected. */
function expectBounded(footprint: DeviceFootprint, connected: DeviceFootprint): void {
  expect(footprint.clients).toBeLessThanOrEqual(1);
  expect(footprint.reconnectTimers).toBeLessThanOrEqual(1);
  expect(footprint.buffered).toBeLessThanOrEqual(BUFFER_LIMIT);
  expect(footprint.rememberedCommands).toBeLessThanOrEqual(REMEMBERED_COMMANDS);
  expect(footprint.deviceListeners).toBeLessThanOrEqual(connected.deviceListeners);
  expect(footprint.clientListeners).toBeLessThanOrEqual(connected.clientListeners);
  // A window of readings, presence, state, and a few acks or events in flight at most.
  expect(footprint.inFlight).toBeLessThanOrEqual(REPLAY_WINDOW + 8);
  expect(footprint.closeWaiters).toBeLessThanOrEqual(4);
}

describe('a simulated flowbox, whatever happens to its connection', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** Resolves once the device is back and subscribed: its presence said `online` once more. */
  async function backOnline(observer: DeviceObserver, before: number): Promise<void> {
    await observer.waitFor('the device back', () => onlineCount(observer) > before);
  }
  const onlineCount = (observer: DeviceObserver) =>
    observer.of('presence').filter((p) => p.status === 'online').length;

  async function setUp(broker: TestBroker) {
    const clock = new ManualClock(NIGHT);
    const serial = uniqueSerial('bounds');
    const observer = await DeviceObserver.watch(broker.url, serial, () => clock.now());
    const device = createDevice({
      serial,
      brokerUrl: broker.url,
      zone: office,
      clock,
      seed: 5,
      // Reconnections at once and often: the bounds are checked over many attempts.
      reconnectPeriodMs: 10,
      reconnectMaxMs: 10,
      rebootDelayMs: 5,
      bufferLimit: BUFFER_LIMIT,
    });
    device.on('problem', () => undefined);
    cleanups.push(
      () => observer.close(),
      () => device.stop(),
    );
    return { clock, serial, observer, device };
  }

  it('stays bounded when its session is taken over again and again while commands arrive', async () => {
    const broker = await startAedes();
    cleanups.push(() => broker.close());
    const { clock, serial, observer, device } = await setUp(broker);
    await device.start();
    await observer.waitFor('state', () => observer.of('state').length > 0);
    const connected = device.footprint();
    for (let round = 0; round < 25; round++) {
      const online = onlineCount(observer);
      // Another client takes the session (clean: false) and, with it, the commands sent meanwhile.
      const thief = await mqtt.connectAsync(broker.url, {
        clientId: serial,
        clean: false,
        reconnectPeriod: 0,
      });
      await observer.send('close_valve');
      for (let i = 0; i < 5; i++) {
        clock.advance(MINUTE);
        device.tick();
      }
      await thief.endAsync(true);
      // The device comes back and gets the next commands, a reboot asked for twice among them.
      await backOnline(observer, online);
      const sent = [await observer.send('autotest'), await observer.send('open_valve')];
      if (round % 5 === 0) sent.push(await observer.send('reboot'), await observer.send('reboot'));
      // Kicked again before it has necessarily sent every answer.
      const kicker = await mqtt.connectAsync(broker.url, {
        clientId: serial,
        clean: true,
        reconnectPeriod: 0,
      });
      await kicker.endAsync(true);
      expectBounded(device.footprint(), connected);
    }
    // Still at work: a last command is run and answered (sent again, as the server retries it, while
    // the device is still reconnecting).
    const id = randomUUID();
    for (let attempt = 0; !observer.acksOf(id).some((a) => a.result === 'done'); attempt++) {
      if (attempt === 40) throw new Error('the device no longer answers its commands');
      await observer.send('autotest', {}, { id });
      await sleep(200);
    }
    expectBounded(device.footprint(), connected);
    await device.stop();
    expect(device.footprint()).toMatchObject({ clients: 0, reconnectTimers: 0, clientListeners: 0 });
  });

  it('keeps one client and one timer while the broker refuses it at CONNECT, however often started', async () => {
    let refusing = true;
    let attempts = 0;
    const broker = await startAedes({
      authenticate: (client, _username, _password, callback) => {
        // The observer (an mqtt.js client id) always gets in.
        if (!refusing || !client.id.startsWith('SIM-')) return callback(null, true);
        attempts += 1;
        // 2: identifier rejected, as a broker answers a client id that is not its user name.
        callback(Object.assign(new Error('identifier rejected'), { returnCode: 2 as const }), false);
      },
    });
    cleanups.push(() => broker.close());
    const { observer, device } = await setUp(broker);
    const starts = [device.start(), device.start(), device.goOnline()];
    await until('many refusals', () => attempts >= 20);
    const refused = device.footprint();
    for (let i = 0; i < 20; i++) {
      await sleep(2);
      const footprint = device.footprint();
      // Either one attempt under way or one scheduled, never more.
      expect(footprint.clients + footprint.reconnectTimers).toBe(1);
      expect(footprint.deviceListeners).toBeLessThanOrEqual(refused.deviceListeners);
      expect(footprint.buffered).toBe(0);
    }
    refusing = false;
    await Promise.all(starts);
    await observer.waitFor('state', () => observer.of('state').length > 0);
    expect(device.footprint()).toMatchObject({ clients: 1, reconnectTimers: 0 });
  });

  it('stays off when stopped during a reboot', async () => {
    const broker = await startAedes();
    cleanups.push(() => broker.close());
    const { observer, device } = await setUp(broker);
    await device.start();
    await observer.waitFor('state', () => observer.of('state').length > 0);
    await observer.send('reboot');
    await until('the reboot under way', () => !device.connected);
    await device.stop();
    await sleep(50);
    expect(device.footprint()).toMatchObject({ clients: 0, reconnectTimers: 0 });
    expect(device.connected).toBe(false);
  });
});
