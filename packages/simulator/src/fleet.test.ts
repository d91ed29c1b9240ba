import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from './clock.ts';
import { createFleet } from './fleet.ts';
import { DeviceObserver, startAedes, uniqueSerial, until, type TestBroker } from './test-helpers.ts';

const MINUTE = 60_000;
const START = Date.parse('2026-01-05T10:00:00Z');

describe('a fleet', () => {
  let broker: TestBroker;
  beforeAll(async () => {
    broker = await startAedes();
  });
  afterAll(async () => {
    await broker.close();
  });

  it('takes devices off the network for their offline period, then replays without gaps', async () => {
    const clock = new ManualClock(START);
    const [steady, flaky] = [uniqueSerial('steady'), uniqueSerial('flaky')];
    const zone = {
      profile: 'office' as const,
      timezone: 'Europe/Paris',
      water_points: [{ type: 'toilet' as const, count: 2 }],
    };
    const fleet = createFleet({
      brokerUrl: broker.url,
      clock,
      seed: 3,
      devices: [
        { serial: steady, zone, cleanSession: true },
        { serial: flaky, zone, cleanSession: true, faults: [{ kind: 'running_toilet' }] },
      ],
      offline: [{ from: START + 2 * MINUTE, until: START + 5 * MINUTE, serials: [flaky] }],
      tickMs: 3_600_000,
    });
    const watch = await Promise.all(
      [steady, flaky].map((serial) => DeviceObserver.watch(broker.url, serial)),
    );
    const [steadyObserver, flakyObserver] = watch;
    if (!steadyObserver || !flakyObserver) throw new Error('observers');
    await fleet.start();
    expect(fleet.stats()).toMatchObject({ devices: 2, connected: 2 });
    for (let minute = 1; minute <= 6; minute++) {
      clock.advance(MINUTE);
      await fleet.tick();
      if (minute === 3) {
        expect(fleet.stats().connected).toBe(1);
        await flakyObserver.waitFor('last will', () =>
          flakyObserver.of('presence').some((p) => p.status === 'offline' && p.reason === 'connection_lost'),
        );
      }
    }
    // A reading not yet confirmed when its device went offline is sent again on reconnection (the
    // server keeps one copy): what counts is that every reading arrives, in order.
    for (const observer of watch)
      await observer.waitFor('six readings', () => observer.telemetrySeqs().length === 6);
    for (const device of fleet.devices) await device.flush();
    await until('every reading confirmed', () => fleet.stats().buffered === 0);
    expect(flakyObserver.telemetrySeqs()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(steadyObserver.telemetrySeqs()).toEqual([1, 2, 3, 4, 5, 6]);
    // The running toilet kept flowing while the device was offline: every minute reports it.
    for (const reading of flakyObserver.of('telemetry')) expect(reading.volume_l).toBeGreaterThanOrEqual(0.6);
    expect(fleet.stats()).toMatchObject({ connected: 2, buffered: 0, published: 12 });
    await fleet.stop();
    for (const observer of watch) {
      await observer.clearRetained();
      await observer.close();
    }
  });
});
