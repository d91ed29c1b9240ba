import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AUTOTEST_RESULTS, CONFIRM_TIMEOUT_S, HEARTBEAT_PERIOD_S, type Telemetry } from '@flowbox/shared';
import { ManualClock } from './clock.ts';
import type { ZoneSpec } from './consumption.ts';
import { createDevice, type DeviceOptions, type SimulatedFlowbox } from './device.ts';
import {
  DeviceObserver,
  startAedes,
  testBrokers,
  uniqueSerial,
  until,
  type TestBroker,
} from './test-helpers.ts';

const MINUTE = 60_000;
/** Monday 5 January 2026, 03:00 in Paris: an office draws nothing, so only faults flow. */
const NIGHT = Date.parse('2026-01-05T02:00:00Z');
const office: ZoneSpec = {
  profile: 'office',
  timezone: 'Europe/Paris',
  water_points: [{ type: 'toilet', count: 4 }],
};

/**
 * The same behaviour against the broker the server embeds and against Mosquitto, the external
 * broker of production set-ups. Serials are unique per run, so runs never see each other.
 */
describe.each(await testBrokers())('a simulated flowbox on %s', (_name, available, startBroker) => {
  let broker: TestBroker;
  const started: Array<{ device: SimulatedFlowbox; observer: DeviceObserver }> = [];

  beforeAll(async () => {
    broker = await startBroker();
  });
  afterEach(async () => {
    for (const { device, observer } of started.splice(0)) {
      await device.stop();
      await observer.clearRetained();
      await observer.close();
    }
  });
  afterAll(async () => {
    await broker?.close();
  });

  async function boot(options: Partial<DeviceOptions> = {}) {
    const clock = new ManualClock(NIGHT);
    const serial = uniqueSerial('dev');
    const observer = await DeviceObserver.watch(broker.url, serial, () => clock.now());
    const device = createDevice({
      serial,
      brokerUrl: broker.url,
      zone: office,
      clock,
      seed: 42,
      cleanSession: true,
      rebootDelayMs: 10,
      ...options,
    });
    started.push({ device, observer });
    await device.start();
    await observer.waitFor('state', () => observer.of('state').length > 0);
    return { device, observer, clock };
  }

  /** Advances the clock one interval at a time and waits for the readings to arrive. */
  async function measure(
    device: SimulatedFlowbox,
    observer: DeviceObserver,
    clock: ManualClock,
    minutes: number,
  ) {
    const before = observer.of('telemetry').length;
    for (let i = 0; i < minutes; i++) {
      clock.advance(MINUTE);
      device.tick();
    }
    await observer.waitFor(`${minutes} readings`, () => observer.of('telemetry').length >= before + minutes);
    // The broker's acknowledgements and the observer's confirmations may trail the deliveries:
    // wait until the device has them all, so that no reading is sent again for want of them.
    await device.flush();
    if (observer.confirming) await until('confirmations', () => device.unconfirmed === 0);
    return observer.of('telemetry').slice(before);
  }

  it.skipIf(!available)('announces itself: presence online and its state, both retained', async () => {
    const { observer } = await boot();
    expect(observer.of('presence')[0]).toMatchObject({ status: 'online' });
    expect(observer.of('state')[0]).toMatchObject({
      valve: 'opened',
      maintenance_mode: false,
      model: 'one_inch_v1',
    });
    const late = await DeviceObserver.watch(broker.url, observer.serial);
    try {
      await late.waitFor(
        'retained state and presence',
        () => late.of('state').length > 0 && late.of('presence').length > 0,
      );
    } finally {
      await late.close();
    }
  });

  it.skipIf(!available)('reports an interval once it is over, never before', async () => {
    // The first interval ends 59.5 s after start: 0.5 s after each whole minute.
    const { device, observer, clock } = await boot({ intervalPhaseMs: 59_500 });
    const readings = await measure(device, observer, clock, 2);
    expect(readings.map((r) => r.at)).toEqual([
      new Date(NIGHT + 500).toISOString(),
      new Date(NIGHT + MINUTE + 500).toISOString(),
    ]);
    expect(device.published).toBe(2);
    clock.advance(499); // 1 ms before the third interval ends
    device.tick();
    await device.flush();
    expect(device.published).toBe(2);
    clock.advance(1);
    device.tick();
    await device.flush();
    expect(device.published).toBe(3);
  });

  it.skipIf(!available)(
    'sends telemetry with consecutive sequence numbers and its own timestamps',
    async () => {
      const { device, observer, clock } = await boot({ faults: [{ kind: 'slow_leak' }] });
      const readings = await measure(device, observer, clock, 3);
      expect(readings.map((r) => r.seq)).toEqual([1, 2, 3]);
      expect(readings.map((r) => r.at)).toEqual(
        [1, 2, 3].map((i) => new Date(NIGHT + i * MINUTE).toISOString()),
      );
      for (const r of readings) expect(r).toMatchObject({ interval_s: 60, volume_l: 0.05, flow_s: 60 });
    },
  );

  it.skipIf(!available)('closes and opens its valve on command: no flow while closed', async () => {
    const { device, observer, clock } = await boot({ faults: [{ kind: 'burst_pipe', flowLpm: 40 }] });
    const close = await observer.send('close_valve');
    expect(await observer.waitForFinalAck(close)).toMatchObject({ result: 'done', reason: null });
    await observer.waitFor('closed state', () => observer.of('state').some((s) => s.valve === 'closed'));
    expect((await measure(device, observer, clock, 2)).map((r) => r.volume_l)).toEqual([0, 0]);
    const open = await observer.send('open_valve');
    expect(await observer.waitForFinalAck(open)).toMatchObject({ result: 'done' });
    expect((await measure(device, observer, clock, 1)).map((r) => r.volume_l)).toEqual([40]);
  });

  it.skipIf(!available)('switches maintenance mode on command', async () => {
    const { observer } = await boot();
    const id = await observer.send('set_maintenance_mode', { enabled: true });
    expect(await observer.waitForFinalAck(id)).toMatchObject({ result: 'done' });
    await observer.waitFor('maintenance state', () => observer.of('state').some((s) => s.maintenance_mode));
  });

  it.skipIf(!available)('ends leak-detection mode after its timeout, with the timeout event', async () => {
    const { device, observer, clock } = await boot();
    const id = await observer.send('set_leak_detection_mode', { enabled: true, timeout_s: 300 });
    expect(await observer.waitForFinalAck(id)).toMatchObject({ result: 'done' });
    const on = await observer.waitFor('leak mode on', () =>
      observer.of('state').find((s) => s.leak_detection_mode),
    );
    expect(on.leak_detection_until).toBe(new Date(NIGHT + 300_000).toISOString());
    await measure(device, observer, clock, 4);
    expect(observer.of('events')).toEqual([]);
    await measure(device, observer, clock, 1);
    const event = await observer.waitFor('timeout event', () => observer.of('events')[0]);
    expect(event).toMatchObject({ type: 'leak_detection_timeout', seq: 1 });
    await observer.waitFor('leak mode off', () => observer.of('state').at(-1)?.leak_detection_mode === false);
  });

  it.skipIf(!available).each(AUTOTEST_RESULTS)('runs an autotest that finds %s', async (result) => {
    const { observer } = await boot({ autotestResult: result });
    const id = await observer.send('autotest');
    expect(await observer.waitForFinalAck(id)).toMatchObject({ result: 'done' });
    expect(observer.acksOf(id).map((a) => a.result)).toEqual(['accepted', 'done']);
    const [event] = observer.of('events');
    expect(event).toMatchObject({ type: 'autotest_result', command_id: id, result });
    if (event?.type !== 'autotest_result') throw new Error('no autotest result');
    const outcomes = event.checks.map((c) => c.result);
    expect(outcomes.length === 0).toBe(result === 'none');
    expect(outcomes.includes('failed')).toBe(result === 'failed');
    expect(outcomes.includes('skipped')).toBe(result === 'some_skipped');
  });

  it.skipIf(!available)(
    'reboots on command: offline for reboot, back online, reboot event, done',
    async () => {
      const { observer } = await boot();
      const id = await observer.send('reboot');
      expect(await observer.waitForFinalAck(id)).toMatchObject({ result: 'done' });
      expect(observer.acksOf(id).map((a) => a.result)).toEqual(['accepted', 'done']);
      expect(
        observer.of('presence').map((p) => (p.status === 'offline' ? `offline:${p.reason}` : p.status)),
      ).toEqual(['online', 'offline:reboot', 'online']);
      expect(observer.of('events')).toMatchObject([{ type: 'reboot', reason: 'command' }]);
    },
  );

  it.skipIf(!available)('refuses what it cannot run and never runs a command twice', async () => {
    const { observer, clock } = await boot();
    const unknown = await observer.send('calibrate_meter', { factor: 1.02 });
    expect(await observer.waitForFinalAck(unknown)).toMatchObject({
      result: 'refused',
      reason: 'unknown_command',
    });
    const bad = await observer.send('set_leak_detection_mode', { enabled: true });
    expect(await observer.waitForFinalAck(bad)).toMatchObject({
      result: 'refused',
      reason: 'invalid_params',
    });
    const stale = await observer.send('close_valve', {}, { issuedAt: clock.now() - 10 * MINUTE, ttlS: 60 });
    expect(await observer.waitForFinalAck(stale)).toMatchObject({ result: 'expired' });
    const close = await observer.send('close_valve');
    await observer.waitForFinalAck(close);
    const open = await observer.send('open_valve');
    await observer.waitForFinalAck(open);
    await observer.send('close_valve', {}, { id: close });
    await observer.waitFor('repeated ack', () => observer.acksOf(close).length === 2);
    expect(observer.acksOf(close).map((a) => a.result)).toEqual(['done', 'done']);
    // The valve stays open: the redelivered close was answered, not run again.
    expect(observer.of('state').map((s) => s.valve)).toEqual(['opened', 'closed', 'opened']);
  });

  it.skipIf(!available)('reports actions done on the device itself', async () => {
    const { device, observer } = await boot();
    device.operateValveByHand('closed');
    device.setMaintenanceOnDevice(true);
    await observer.waitFor('two events', () => observer.of('events').length === 2);
    expect(observer.of('events')).toMatchObject([
      { seq: 1, type: 'valve_operated_by_hand', valve: 'closed' },
      { seq: 2, type: 'maintenance_mode_set_on_device', enabled: true },
    ]);
  });

  it.skipIf(!available)(
    'leaves its last will when the network drops, and replays its buffer in order',
    async () => {
      const { device, observer, clock } = await boot({ faults: [{ kind: 'slow_leak' }] });
      await measure(device, observer, clock, 2);
      await device.goOffline();
      await observer.waitFor('last will', () =>
        observer.of('presence').find((p) => p.status === 'offline' && p.reason === 'connection_lost'),
      );
      for (let i = 0; i < 5; i++) {
        clock.advance(MINUTE);
        device.tick();
      }
      device.operateValveByHand('closed');
      expect(device.buffered).toBe(6);
      await device.goOnline();
      await observer.waitFor(
        'replay',
        () => observer.of('telemetry').length === 7 && observer.of('events').length === 1,
      );
      await device.flush();
      await until('confirmations', () => device.buffered === 0);
      expect(observer.of('telemetry').map((t: Telemetry) => t.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(observer.of('telemetry').map((t) => Date.parse(t.at) - NIGHT)).toEqual(
        [1, 2, 3, 4, 5, 6, 7].map((i) => i * MINUTE),
      );
      expect(observer.of('events')).toMatchObject([{ seq: 1, type: 'valve_operated_by_hand' }]);
      expect(device.buffered).toBe(0);
      expect(observer.of('presence').at(-1)).toMatchObject({ status: 'online' });
    },
  );

  it.skipIf(!available)('drops the oldest readings when its buffer is full, never events', async () => {
    const { device, observer, clock } = await boot({ bufferLimit: 3 });
    await device.goOffline();
    device.setMaintenanceOnDevice(true);
    for (let i = 0; i < 4; i++) {
      clock.advance(MINUTE);
      device.tick();
    }
    await device.goOnline();
    await observer.waitFor('replay', () => observer.of('telemetry').length === 2);
    await device.flush();
    expect(observer.of('telemetry').map((t) => t.seq)).toEqual([3, 4]);
    expect(observer.of('events')).toMatchObject([{ seq: 1, type: 'maintenance_mode_set_on_device' }]);
  });

  it.skipIf(!available)(
    'keeps a reading the broker acknowledged until the server confirms it, and sends it again after the timeout',
    async () => {
      const { device, observer, clock } = await boot({ faults: [{ kind: 'slow_leak' }] });
      observer.confirming = false;
      const first = await measure(device, observer, clock, 2);
      expect({ buffered: device.buffered, unconfirmed: device.unconfirmed }).toEqual({
        buffered: 2,
        unconfirmed: 2,
      });
      // Short of the next interval: only the timeout is at stake.
      clock.advance(CONFIRM_TIMEOUT_S * 1000 - 1);
      device.tick();
      await device.flush();
      expect(device.resent).toBe(0);
      clock.advance(1);
      device.tick();
      await observer.waitFor('the readings again', () => observer.of('telemetry').length === 4);
      // Same sequence numbers, same payloads, stamped with the time they are sent again.
      const unstamped = (messages: readonly object[]) =>
        messages.map((m) => ({ ...m, sent_at: undefined }) as object);
      const again = observer.of('telemetry').slice(2) as { sent_at?: string }[];
      expect(unstamped(again)).toEqual(unstamped(first));
      for (const [i, message] of again.entries())
        expect(Date.parse(message.sent_at!)).toBeGreaterThan(
          Date.parse((first[i] as { sent_at?: string }).sent_at!),
        );
      expect(device.resent).toBe(2);
      await observer.confirm([[1, 2]]);
      await until('the confirmation', () => device.buffered === 0);
      clock.advance(CONFIRM_TIMEOUT_S * 1000 - 1);
      device.tick();
      await device.flush();
      expect(observer.of('telemetry')).toHaveLength(4);
    },
  );

  it.skipIf(!available)(
    'replays its unconfirmed readings in order on reconnection; events leave at the broker acknowledgement',
    async () => {
      const { device, observer, clock } = await boot();
      observer.confirming = false;
      await measure(device, observer, clock, 3);
      device.setMaintenanceOnDevice(true);
      await observer.waitFor('the event', () => observer.of('events').length === 1);
      await device.flush();
      expect(device.buffered).toBe(3);
      await observer.confirm([[2, 2]]);
      await until('the confirmation of 2', () => device.buffered === 2);
      await device.goOffline();
      clock.advance(MINUTE);
      device.tick();
      await device.goOnline();
      await observer.waitFor('the replay', () => observer.of('telemetry').length === 6);
      expect(observer.of('telemetry').map((t) => t.seq)).toEqual([1, 2, 3, 1, 3, 4]);
      expect(observer.of('events')).toHaveLength(1);
    },
  );

  it.skipIf(!available)('counts unconfirmed readings in its buffer limit', async () => {
    const { device, observer, clock } = await boot({ bufferLimit: 3 });
    observer.confirming = false;
    for (let minute = 0; minute < 5; minute++) await measure(device, observer, clock, 1);
    expect({ buffered: device.buffered, dropped: device.dropped }).toEqual({ buffered: 3, dropped: 2 });
    await device.goOffline();
    // Readings unconfirmed for a minute were sent again meanwhile: only the replay matters here.
    const before = observer.of('telemetry').length;
    await device.goOnline();
    await observer.waitFor('the replay', () => observer.of('telemetry').length === before + 3);
    expect(
      observer
        .of('telemetry')
        .slice(before)
        .map((t) => t.seq),
    ).toEqual([3, 4, 5]);
  });

  it.skipIf(!available)(
    'stamps its messages with its own skewed clock, and judges expiry by it',
    async () => {
      const skew = 2 * 60 * MINUTE;
      const { device, observer, clock } = await boot({ clockSkewMs: skew });
      const [reading] = await measure(device, observer, clock, 1);
      expect(reading?.at).toBe(new Date(NIGHT + MINUTE + skew).toISOString());
      // Valid for two minutes by the server's clock, already past by the device's.
      const id = await observer.send('close_valve');
      expect(await observer.waitForFinalAck(id)).toMatchObject({ result: 'expired' });
    },
  );

  it.skipIf(!available)(
    'keeps a heartbeat only through silences (any message says it is there)',
    async () => {
      const { device, observer, clock } = await boot();
      const online = () => observer.of('presence').filter((p) => p.status === 'online').length;
      await observer.waitFor('online at connection', () => online() === 1);
      // A period without a message: a heartbeat (asked again until the connection's first messages,
      // acknowledged in their own time, are behind it; asked twice, it is sent once).
      clock.advance(HEARTBEAT_PERIOD_S * 1000);
      await observer.waitFor('a heartbeat', () => {
        void device.heartbeat();
        return online() === 2;
      });
      // It has just said it is there: none within the period, however often asked.
      await device.heartbeat();
      clock.advance(HEARTBEAT_PERIOD_S * 1000 - 1);
      await device.heartbeat();
      // A message sent after them arrives after them: none was sent.
      device.operateValveByHand('closed');
      await observer.waitFor('the valve closed by hand', () =>
        observer.of('state').some((s) => s.valve === 'closed'),
      );
      expect(online()).toBe(2);
      // That state was a message too: the next heartbeat waits a period from it.
      clock.advance(HEARTBEAT_PERIOD_S * 1000);
      await observer.waitFor('a second heartbeat', () => {
        void device.heartbeat();
        return online() === 3;
      });
    },
  );
});

describe('a simulated flowbox whose broker refuses the confirm subscription', () => {
  it('counts a reading as delivered once the broker acknowledges it, and says so once', async () => {
    const broker = await startAedes({
      // A broker role made before `confirm` existed: that one subscription is refused (SUBACK 0x80).
      authorizeSubscribe: (_client, subscription, callback) =>
        callback(null, subscription.topic.endsWith('/confirm') ? null : subscription),
    });
    const clock = new ManualClock(NIGHT);
    const serial = uniqueSerial('old-acl');
    const observer = await DeviceObserver.watch(broker.url, serial, () => clock.now());
    observer.confirming = false;
    const device = createDevice({ serial, brokerUrl: broker.url, zone: office, clock, cleanSession: true });
    const problems: string[] = [];
    device.on('problem', (error) => problems.push(error.message));
    try {
      for (let connection = 1; connection <= 2; connection++) {
        await device.start();
        await observer.waitFor('state', () => observer.of('state').length === connection);
        clock.advance(MINUTE);
        device.tick();
        await observer.waitFor('a reading', () => observer.of('telemetry').length === connection);
        await device.flush();
        expect(device.buffered).toBe(0);
        await device.goOffline();
      }
      expect(device.confirmRefusals).toBe(2);
      expect(problems.filter((p) => p.includes('confirm'))).toHaveLength(1);
      expect(observer.of('telemetry').map((t) => t.seq)).toEqual([1, 2]);
    } finally {
      await device.stop();
      await observer.close();
      await broker.close();
    }
  });
});
