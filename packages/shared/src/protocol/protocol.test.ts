import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RECONNECT_BASE_S, RECONNECT_MAX_S, reconnectDelayMs } from './topics.ts';
import {
  bootstrapUsername,
  deviceTopic,
  encodePayload,
  identityFromUsername,
  MAX_PAYLOAD_BYTES,
  mayPublish,
  maySubscribe,
  parseCommand,
  parseDeviceMessage,
  parsePairingResponse,
  parseTopic,
  sharedIngestFilter,
  TOPIC_KINDS,
  type Ack,
  type Command,
  type DeviceEvent,
  type DeviceState,
  type PairingRequest,
  type Presence,
  type Telemetry,
} from '../index.ts';

// JSON has no negative zero: -0 comes back as 0, so the generators never make it.
const num = (min: number, max: number) => fc.double({ min, max, noNaN: true }).map((x) => x + 0);
const serialArb = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_-]{0,20}$/);
// Whole milliseconds between 2000 and 2100, written as the devices write them.
const isoArb = fc
  .integer({ min: 946_684_800_000, max: 4_102_444_800_000 })
  .map((ms) => new Date(ms).toISOString());
const seqArb = fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER });
const tempArb = fc.option(num(-40, 125), { nil: null });
const humidityArb = fc.option(num(0, 100), { nil: null });

const telemetryArb: fc.Arbitrary<Telemetry> = fc
  .record({ interval_s: fc.integer({ min: 1, max: 3600 }), seq: seqArb, at: isoArb })
  .chain(({ interval_s, seq, at }) =>
    fc.record({
      v: fc.constant(1 as const),
      seq: fc.constant(seq),
      at: fc.constant(at),
      interval_s: fc.constant(interval_s),
      volume_l: num(0, interval_s * 25),
      flow_s: fc.integer({ min: 0, max: interval_s }),
      temperature_c: tempArb,
      humidity_pct: humidityArb,
    }),
  );

const versionsArb = fc.record({
  esp: fc.string({ minLength: 1, maxLength: 40 }),
  board: fc.string({ minLength: 1, maxLength: 40 }),
  firmware: fc.string({ minLength: 1, maxLength: 40 }),
});

const stateArb: fc.Arbitrary<DeviceState> = fc.record({
  v: fc.constant(1 as const),
  at: isoArb,
  valve: fc.constantFrom('opened' as const, 'closed' as const),
  maintenance_mode: fc.boolean(),
  leak_detection_mode: fc.boolean(),
  leak_detection_until: fc.option(isoArb, { nil: null }),
  model: fc.constantFrom('half_inch_v1' as const, 'one_inch_v1' as const, 'two_inches_v1' as const),
  water_temperature: fc.constantFrom('cold' as const, 'hot' as const),
  versions: versionsArb,
  network: fc.record({
    interface: fc.constantFrom('wifi' as const, 'ethernet' as const, 'cellular' as const),
    address: fc.ipV4(),
    gateway: fc.ipV4(),
    wifi_ssid: fc.option(fc.string({ maxLength: 32 }), { nil: null }),
  }),
  temperature_c: tempArb,
  humidity_pct: humidityArb,
});

const eventArb: fc.Arbitrary<DeviceEvent> = fc
  .record({ v: fc.constant(1 as const), seq: seqArb, at: isoArb })
  .chain((base) =>
    fc.oneof(
      fc
        .constantFrom('opened' as const, 'closed' as const)
        .map((valve) => ({ ...base, type: 'valve_operated_by_hand' as const, valve })),
      fc.boolean().map((enabled) => ({ ...base, type: 'maintenance_mode_set_on_device' as const, enabled })),
      fc.constant({ ...base, type: 'leak_detection_timeout' as const }),
      fc
        .record({
          command_id: fc.option(fc.uuid(), { nil: null }),
          result: fc.constantFrom(
            'none' as const,
            'all_succeeded' as const,
            'some_skipped' as const,
            'failed' as const,
          ),
          checks: fc.array(
            fc.record({
              name: fc.string({ minLength: 1, maxLength: 40 }),
              result: fc.constantFrom('succeeded' as const, 'skipped' as const, 'failed' as const),
            }),
            { maxLength: 5 },
          ),
        })
        .map((r) => ({ ...base, type: 'autotest_result' as const, ...r })),
      fc
        .constantFrom('command' as const, 'power_loss' as const, 'watchdog' as const, 'crash' as const)
        .map((reason) => ({
          ...base,
          type: 'reboot' as const,
          reason,
        })),
      fc
        .record({
          state: fc.constantFrom(
            'requesting' as const,
            'started' as const,
            'success' as const,
            'block_download_failed' as const,
          ),
          update_id: fc.uuid(),
          version: fc.string({ minLength: 1, maxLength: 40 }),
          progress_pct: fc.option(num(0, 100), { nil: null }),
          bytes: fc.option(fc.nat({ max: 16 * 1024 * 1024 }), { nil: null }),
        })
        .map((r) => ({ ...base, type: 'firmware_progress' as const, ...r })),
    ),
  );

const ackArb: fc.Arbitrary<Ack> = fc.oneof(
  fc.record({
    v: fc.constant(1 as const),
    command_id: fc.uuid(),
    at: isoArb,
    result: fc.constantFrom('accepted' as const, 'done' as const, 'expired' as const),
    reason: fc.constant(null),
  }),
  fc.record({
    v: fc.constant(1 as const),
    command_id: fc.uuid(),
    at: isoArb,
    result: fc.constant('refused' as const),
    reason: fc.constantFrom('unknown_command' as const, 'invalid_params' as const, 'busy' as const),
  }),
);

const presenceArb: fc.Arbitrary<Presence> = fc.oneof(
  fc.record({ v: fc.constant(1 as const), at: isoArb, status: fc.constant('online' as const) }),
  fc.record({
    v: fc.constant(1 as const),
    at: isoArb,
    status: fc.constant('offline' as const),
    reason: fc.constantFrom('connection_lost' as const, 'shutdown' as const, 'reboot' as const),
  }),
);

const commandArb: fc.Arbitrary<Command> = fc
  .record({
    v: fc.constant(1 as const),
    id: fc.uuid(),
    issued: fc.integer({ min: 946_684_800_000, max: 4_000_000_000_000 }),
    ttl: fc.integer({ min: 1, max: 86_400_000 }),
  })
  .chain(({ v, id, issued, ttl }) => {
    const base = {
      v,
      id,
      issued_at: new Date(issued).toISOString(),
      expires_at: new Date(issued + ttl).toISOString(),
    };
    return fc.oneof(
      fc
        .constantFrom('open_valve' as const, 'close_valve' as const, 'autotest' as const, 'reboot' as const)
        .map((name) => ({
          ...base,
          name,
          params: {},
        })),
      fc
        .boolean()
        .map((enabled) => ({ ...base, name: 'set_maintenance_mode' as const, params: { enabled } })),
      fc.integer({ min: 60, max: 86_400 }).map((timeout_s) => ({
        ...base,
        name: 'set_leak_detection_mode' as const,
        params: { enabled: true as const, timeout_s },
      })),
    );
  });

const pairingRequestArb = (serial: string): fc.Arbitrary<PairingRequest> =>
  fc.record({
    v: fc.constant(1 as const),
    request_id: fc.uuid(),
    serial: fc.constant(serial),
    at: isoArb,
    model: fc.constantFrom('half_inch_v1' as const, 'two_inches_v1' as const),
    water_temperature: fc.constantFrom('cold' as const, 'hot' as const),
    versions: versionsArb,
  });

describe('reconnecting (docs/protocol.md "Reconnecting")', () => {
  it('waits between half and all of a window that doubles with each failure in a row, up to a minute', () => {
    const base = RECONNECT_BASE_S * 1000;
    expect(reconnectDelayMs(0, 0)).toBe(base / 2);
    expect(reconnectDelayMs(0, 0.999_999)).toBe(base);
    expect(reconnectDelayMs(3, 0)).toBe(4 * base);
    expect(reconnectDelayMs(3, 0.5)).toBe(6 * base);
    expect(reconnectDelayMs(10, 0)).toBe((RECONNECT_MAX_S * 1000) / 2);
    expect(reconnectDelayMs(1_000, 0.999_999)).toBe(RECONNECT_MAX_S * 1000);
    // A test's short base keeps the same shape.
    expect(reconnectDelayMs(2, 0, 10)).toBe(20);
  });

  it('keeps every wait within its window, whatever the draw', () => {
    fc.assert(
      fc.property(
        fc.nat(20),
        fc.array(fc.double({ min: 0, max: 0.999_999, noNaN: true }), { minLength: 2 }),
        (attempt, draws) => {
          const window = Math.min(RECONNECT_MAX_S * 1000, RECONNECT_BASE_S * 1000 * 2 ** attempt);
          for (const r of draws) {
            const delay = reconnectDelayMs(attempt, r);
            expect(delay).toBeGreaterThanOrEqual(window / 2);
            expect(delay).toBeLessThanOrEqual(window);
          }
        },
      ),
    );
  });
});

describe('topics', () => {
  it('round-trip every kind for any serial', () => {
    fc.assert(
      fc.property(serialArb, fc.constantFrom(...TOPIC_KINDS), (serial, kind) => {
        expect(parseTopic(deviceTopic(serial, kind))).toEqual({ serial, kind });
      }),
    );
  });

  it('refuse wildcards, other roots and unknown kinds', () => {
    for (const topic of [
      'flowbox/+/telemetry',
      'flowbox/#',
      'other/AB1/telemetry',
      'flowbox/AB1/telemetry/x',
      'flowbox/AB1/pairing',
      'flowbox/a.b/state',
    ])
      expect(parseTopic(topic)).toBeNull();
    expect(sharedIngestFilter('telemetry')).toBe('$share/ingest/flowbox/+/telemetry');
  });
  it('read topics as the split on "/" does, for any string made of topic-like pieces', () => {
    // The reference: three or four levels, the root, a valid serial, a known kind.
    const bySplit = (topic: string) => {
      const levels = topic.split('/');
      if (levels[0] !== 'flowbox' || levels.length < 3 || levels.length > 4) return null;
      const serial = levels[1]!;
      const kind = levels.slice(2).join('/');
      if (
        !/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(serial) ||
        !(TOPIC_KINDS as readonly string[]).includes(kind)
      )
        return null;
      return { serial, kind };
    };
    const piece = fc.oneof(
      fc.constantFrom('flowbox', '/', 'pairing', 'request', 'telemetry', 'FB-1', '', '+', '#', '.', 'x'),
      fc.constantFrom(...TOPIC_KINDS),
      serialArb,
      fc.string({ maxLength: 4 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 7 }), (pieces) => {
        const topic = pieces.join('');
        expect(parseTopic(topic)).toEqual(bySplit(topic));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('identities and ACL', () => {
  it('tell device and bootstrap users apart', () => {
    expect(identityFromUsername('FB-001')).toEqual({ role: 'device', serial: 'FB-001' });
    expect(identityFromUsername(bootstrapUsername('FB-001'))).toEqual({
      role: 'bootstrap',
      serial: 'FB-001',
    });
    for (const name of [undefined, '', 'bootstrap.', 'bootstrap.a/b', 'a b', 'x:y', '#'])
      expect(identityFromUsername(name)).toBeNull();
  });

  it('let a device publish and subscribe only under its own serial', () => {
    const device = { role: 'device' as const, serial: 'FB-001' };
    for (const kind of ['telemetry', 'state', 'events', 'acks', 'presence', 'pairing/request'] as const)
      expect(mayPublish(device, deviceTopic('FB-001', kind))).toBe(true);
    expect(mayPublish(device, deviceTopic('FB-001', 'commands'))).toBe(false);
    expect(mayPublish(device, deviceTopic('FB-002', 'telemetry'))).toBe(false);
    expect(mayPublish(device, 'flowbox/+/telemetry')).toBe(false);
    expect(maySubscribe(device, deviceTopic('FB-001', 'commands'))).toBe(true);
    expect(maySubscribe(device, deviceTopic('FB-002', 'commands'))).toBe(false);
    expect(maySubscribe(device, 'flowbox/FB-001/#')).toBe(false);
    expect(maySubscribe(device, 'flowbox/+/commands')).toBe(false);
  });

  it('open only the pairing topics to a bootstrap identity', () => {
    const bootstrap = { role: 'bootstrap' as const, serial: 'FB-001' };
    expect(mayPublish(bootstrap, deviceTopic('FB-001', 'pairing/request'))).toBe(true);
    expect(mayPublish(bootstrap, deviceTopic('FB-001', 'telemetry'))).toBe(false);
    expect(mayPublish(bootstrap, deviceTopic('FB-002', 'pairing/request'))).toBe(false);
    expect(maySubscribe(bootstrap, deviceTopic('FB-001', 'pairing/response'))).toBe(true);
    expect(maySubscribe(bootstrap, deviceTopic('FB-001', 'commands'))).toBe(false);
  });
});

describe('device messages', () => {
  const roundTrip = <T>(kind: 'telemetry' | 'state' | 'events' | 'acks' | 'presence', arb: fc.Arbitrary<T>) =>
    fc.assert(
      fc.property(serialArb, arb, (serial, message) => {
        const payload = new TextEncoder().encode(encodePayload(message as object));
        expect(parseDeviceMessage(deviceTopic(serial, kind), payload)).toEqual({
          ok: true,
          value: { kind, serial, message },
        });
      }),
    );

  it('round-trip valid telemetry', () => roundTrip('telemetry', telemetryArb));
  it('round-trip valid state', () => roundTrip('state', stateArb));
  it('round-trip valid events', () => roundTrip('events', eventArb));
  it('round-trip valid acks', () => roundTrip('acks', ackArb));
  it('round-trip valid presence', () => roundTrip('presence', presenceArb));

  it('round-trip pairing requests whose serial is the topic’s, and refuse another serial', () => {
    fc.assert(
      fc.property(
        serialArb.chain((s) => fc.tuple(fc.constant(s), pairingRequestArb(s))),
        ([serial, request]) => {
          expect(parseDeviceMessage(deviceTopic(serial, 'pairing/request'), encodePayload(request))).toEqual({
            ok: true,
            value: { kind: 'pairing/request', serial, message: request },
          });
          const other = parseDeviceMessage(
            deviceTopic(`${serial}x`, 'pairing/request'),
            encodePayload(request),
          );
          expect(other).toMatchObject({ ok: false, reason: 'serial_mismatch', serial: `${serial}x` });
        },
      ),
    );
  });

  it('give a reason, never a throw, for any bytes on any topic', () => {
    fc.assert(
      fc.property(fc.string(), fc.uint8Array({ maxLength: 600 }), (topic, bytes) => {
        const result = parseDeviceMessage(topic, bytes);
        expect(result.ok).toBe(false);
      }),
    );
    fc.assert(
      fc.property(
        serialArb,
        fc.constantFrom(...TOPIC_KINDS),
        fc.uint8Array({ maxLength: 600 }),
        (serial, kind, bytes) => {
          const result = parseDeviceMessage(deviceTopic(serial, kind), bytes);
          if (!result.ok) expect(result.serial).toBe(serial);
        },
      ),
    );
  });

  it('give a reason for any JSON value', () => {
    fc.assert(
      fc.property(fc.constantFrom(...TOPIC_KINDS), fc.jsonValue(), (kind, value) => {
        const result = parseDeviceMessage(deviceTopic('FB-1', kind), JSON.stringify(value));
        expect(result.ok).toBe(false);
      }),
    );
  });

  it('name each failure', () => {
    const topic = deviceTopic('FB-1', 'telemetry');
    const good: Telemetry = {
      v: 1,
      seq: 7,
      at: '2026-01-05T10:00:00.000Z',
      interval_s: 60,
      volume_l: 6.5,
      flow_s: 40,
      temperature_c: 19.5,
      humidity_pct: 45,
    };
    const reason = (t: string, p: string | Uint8Array) => {
      const r = parseDeviceMessage(t, p);
      return r.ok ? 'ok' : r.reason;
    };
    expect(reason(topic, encodePayload(good))).toBe('ok');
    expect(reason('flowbox/FB-1/nope', '{}')).toBe('unknown_topic');
    expect(reason(deviceTopic('FB-1', 'commands'), '{}')).toBe('not_device_topic');
    expect(reason(topic, 'x'.repeat(MAX_PAYLOAD_BYTES + 1))).toBe('too_large');
    expect(reason(topic, new Uint8Array([0xff, 0xfe]))).toBe('not_utf8');
    expect(reason(topic, '{"v":1,')).toBe('not_json');
    expect(reason(topic, encodePayload({ ...good, v: 2 }))).toBe('unsupported_version');
    expect(reason(topic, encodePayload({ ...good, seq: 0 }))).toBe('invalid_schema');
    expect(reason(topic, encodePayload({ ...good, flow_s: 61 }))).toBe('invalid_schema');
    expect(reason(topic, encodePayload({ ...good, volume_l: 60 * 25 + 1 }))).toBe('invalid_schema');
    expect(reason(topic, encodePayload({ ...good, at: '2026-01-05 10:00' }))).toBe('invalid_schema');
    expect(reason(topic, encodePayload({ ...good, volume_l: -1 }))).toBe('invalid_schema');
  });

  it('ignore unknown fields, so newer devices may add some', () => {
    const ack = {
      v: 1,
      command_id: '6f1c1e4e-5b0e-4c53-9d43-0c8e2a3b9a10',
      at: '2026-01-05T10:00:00Z',
      result: 'done',
      reason: null,
    };
    const r = parseDeviceMessage(deviceTopic('FB-1', 'acks'), encodePayload({ ...ack, battery: 3 }));
    expect(r).toEqual({ ok: true, value: { kind: 'acks', serial: 'FB-1', message: ack } });
  });

  it('want a reason with refused acks only', () => {
    const ack = { v: 1, command_id: '6f1c1e4e-5b0e-4c53-9d43-0c8e2a3b9a10', at: '2026-01-05T10:00:00Z' };
    const ok = (p: object) => parseDeviceMessage(deviceTopic('FB-1', 'acks'), encodePayload(p)).ok;
    expect(ok({ ...ack, result: 'refused', reason: null })).toBe(false);
    expect(ok({ ...ack, result: 'done', reason: 'busy' })).toBe(false);
    expect(ok({ ...ack, result: 'refused', reason: 'busy' })).toBe(true);
  });
});

describe('commands, read by the device', () => {
  it('round-trip valid commands', () => {
    fc.assert(
      fc.property(commandArb, (command) => {
        expect(parseCommand(encodePayload(command))).toEqual({ ok: true, message: command });
      }),
    );
  });

  it('keep the id of a command it cannot run, so it can be refused', () => {
    const base = {
      v: 1,
      id: '6f1c1e4e-5b0e-4c53-9d43-0c8e2a3b9a10',
      issued_at: '2026-01-05T10:00:00Z',
      expires_at: '2026-01-05T10:02:00Z',
    };
    expect(parseCommand(encodePayload({ ...base, name: 'format_disk', params: {} }))).toMatchObject({
      ok: false,
      reason: 'unknown_command',
      commandId: base.id,
    });
    expect(
      parseCommand(encodePayload({ ...base, name: 'update_firmware', params: { url: 'x' } })),
    ).toMatchObject({ ok: false, reason: 'invalid_schema', commandId: base.id });
    expect(
      parseCommand(encodePayload({ ...base, name: 'set_leak_detection_mode', params: { enabled: true } })),
    ).toMatchObject({
      ok: false,
      reason: 'invalid_schema',
      commandId: base.id,
    });
    expect(
      parseCommand(encodePayload({ ...base, name: 'open_valve', params: {}, expires_at: base.issued_at })),
    ).toMatchObject({
      ok: false,
      reason: 'invalid_schema',
    });
    expect(parseCommand(encodePayload({ ...base, v: 2, name: 'open_valve', params: {} }))).toMatchObject({
      ok: false,
      reason: 'unsupported_version',
      commandId: base.id,
    });
    expect(parseCommand('nonsense')).toMatchObject({ ok: false, reason: 'not_json', commandId: null });
  });

  it('never throw on any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => {
        expect(parseCommand(bytes).ok).toBe(false);
      }),
    );
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(parseCommand(JSON.stringify(value)).ok).toBe(false);
      }),
    );
  });
});

describe('pairing responses', () => {
  it('carry credentials only when accepted', () => {
    const base = { v: 1, request_id: '6f1c1e4e-5b0e-4c53-9d43-0c8e2a3b9a10' };
    const secret = 'a'.repeat(43);
    expect(parsePairingResponse(encodePayload({ ...base, result: 'pending' })).ok).toBe(true);
    expect(
      parsePairingResponse(
        encodePayload({
          ...base,
          result: 'accepted',
          username: 'FB-1',
          password: secret,
          issued_at: '2026-01-05T10:00:00Z',
        }),
      ).ok,
    ).toBe(true);
    expect(
      parsePairingResponse(
        encodePayload({ ...base, result: 'accepted', username: 'FB-1', password: 'short' }),
      ).ok,
    ).toBe(false);
    expect(
      parsePairingResponse(encodePayload({ ...base, result: 'refused', reason: 'refused_by_operator' })).ok,
    ).toBe(true);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(parsePairingResponse(bytes).ok).toBe(false);
      }),
    );
  });
});
