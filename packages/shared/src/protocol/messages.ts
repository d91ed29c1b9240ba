import { z } from 'zod';
import { FIRMWARE_FAILURE_REASONS, FIRMWARE_MAX_BYTES, FIRMWARE_VERSION_PATTERN } from '../firmware.ts';
import {
  COMMAND_MAX_TTL_S,
  CONFIRM_MAX_RANGES,
  DeviceSecretSchema,
  MAX_TELEMETRY_INTERVAL_S,
  MIN_TELEMETRY_INTERVAL_S,
  PROTOCOL_VERSION,
  DeviceSerialSchema,
} from './topics.ts';
import { FLOWBOX_MODELS, VALVE_STATES, WATER_TEMPERATURES } from '../domain/flowboxes.ts';

/**
 * Payloads of the device protocol (docs/protocol.md). Every payload is a JSON object carrying the
 * protocol version `v`. Unknown fields are ignored, so a newer device may add fields without
 * breaking an older server (versioning: additive changes keep `v`).
 */

const version = z.literal(PROTOCOL_VERSION);
/** Timestamps are UTC ISO 8601 with a `Z` (device clock, or server clock for commands). */
const timestamp = z.iso.datetime();
/** Per-stream counter: starts at 1 when the device receives credentials, never goes back. */
const sequence = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const shortText = (max: number) => z.string().min(1).max(max);

/**
 * Highest physical flow of the largest model (two-inch) with margin, in litres per minute: a reading
 * beyond it is a broken meter or a forged message, not water.
 */
export const MAX_FLOW_LPM = 1500;

/** spec §3 flowbox fields: the thermometer and hygrometer of the device itself. */
const temperatureC = z.number().min(-40).max(125).nullable();
const humidityPct = z.number().min(0).max(100).nullable();

/**
 * One telemetry interval: the water that went through the meter during `interval_s` seconds ending
 * at `at`, in litres (1 mL resolution), and for how many of those seconds water flowed (the
 * duration margin of automatic closing, spec §4).
 */
/** The largest meter index a reading may report: a trillion litres, far beyond any register. */
export const METER_INDEX_MAX_L = 1e12;

export const TelemetrySchema = z
  .object({
    v: version,
    seq: sequence,
    at: timestamp,
    interval_s: z.number().int().min(MIN_TELEMETRY_INTERVAL_S).max(MAX_TELEMETRY_INTERVAL_S),
    volume_l: z.number().min(0),
    flow_s: z.number().int().min(0),
    temperature_c: temperatureC,
    humidity_pct: humidityPct,
    /**
     * The meter's index at `at`: litres it has counted since it was made (its register), 1 mL
     * resolution; optional (docs/protocol.md). The server keeps the newest for billing checks.
     */
    meter_index_l: z.number().min(0).max(METER_INDEX_MAX_L).optional(),
    /**
     * The device's clock when it published this message (not when it measured it): with `at`, the
     * server tells a reading's age from the device's skew (docs/protocol.md "Clocks"). Optional:
     * older devices leave it out and get the conservative rule of docs/automation.md.
     */
    sent_at: timestamp.optional(),
  })
  .refine((t) => t.flow_s <= t.interval_s, { path: ['flow_s'], message: 'flow_s exceeds interval_s' })
  .refine((t) => t.volume_l <= (t.interval_s * MAX_FLOW_LPM) / 60, {
    path: ['volume_l'],
    message: 'volume beyond the largest model flow',
  });
export type Telemetry = z.infer<typeof TelemetrySchema>;

export const NETWORK_INTERFACES = ['wifi', 'ethernet', 'cellular'] as const;
export type NetworkInterface = (typeof NETWORK_INTERFACES)[number];

export const DeviceVersionsSchema = z.object({
  esp: shortText(40),
  board: shortText(40),
  firmware: shortText(40),
});
export type DeviceVersions = z.infer<typeof DeviceVersionsSchema>;

/**
 * The device's whole state (spec §3 flowbox fields, §4 valve and modes), retained: published on
 * every connection and on every change. `water_temperature` is the hot/cold sensor's reading, which
 * the server compares with the zone's (spec §8 mismatch error).
 */
export const DeviceStateSchema = z.object({
  v: version,
  at: timestamp,
  valve: z.enum(VALVE_STATES),
  maintenance_mode: z.boolean(),
  leak_detection_mode: z.boolean(),
  /** When the leak-detection mode ends on its own (device clock); null when off. */
  leak_detection_until: timestamp.nullable(),
  model: z.enum(FLOWBOX_MODELS),
  water_temperature: z.enum(WATER_TEMPERATURES),
  versions: DeviceVersionsSchema,
  network: z.object({
    interface: z.enum(NETWORK_INTERFACES),
    address: shortText(45),
    gateway: shortText(45),
    wifi_ssid: z.string().max(32).nullable(),
  }),
  temperature_c: temperatureC,
  humidity_pct: humidityPct,
});
export type DeviceState = z.infer<typeof DeviceStateSchema>;

/** spec §4 autotest results: none detected, all succeeded, succeeded with some skipped, failed. */
export const AUTOTEST_RESULTS = ['none', 'all_succeeded', 'some_skipped', 'failed'] as const;
export type AutotestResult = (typeof AUTOTEST_RESULTS)[number];
export const AUTOTEST_CHECK_RESULTS = ['succeeded', 'skipped', 'failed'] as const;

/** spec §4 "reboot (with reasons)". */
export const REBOOT_REASONS = [
  'command',
  'power_loss',
  'watchdog',
  'firmware_update',
  'crash',
  'button',
] as const;
export type RebootReason = (typeof REBOOT_REASONS)[number];

/**
 * spec §4 firmware states. `requested` and `timeout` are the server's own; the device reports the
 * others as the download and update progress.
 */
export const FIRMWARE_STATES = [
  'requested',
  'requesting',
  'started',
  'downloaded',
  'success',
  'failed',
  'invalid_naming',
  'timeout',
  'block_download_failed',
] as const;
export type FirmwareState = (typeof FIRMWARE_STATES)[number];
export const DEVICE_FIRMWARE_STATES = [
  'requesting',
  'started',
  'downloaded',
  'success',
  'failed',
  'invalid_naming',
  'block_download_failed',
] as const satisfies readonly FirmwareState[];

const eventBase = { v: version, seq: sequence, at: timestamp };

/** Device events (spec §4): things that happened on the device, each once, in order. */
export const DeviceEventSchema = z.discriminatedUnion('type', [
  /** Someone turned the valve by hand. */
  z.object({ ...eventBase, type: z.literal('valve_operated_by_hand'), valve: z.enum(VALVE_STATES) }),
  /** The maintenance mode was switched with the device's own button. */
  z.object({ ...eventBase, type: z.literal('maintenance_mode_set_on_device'), enabled: z.boolean() }),
  /** The leak-detection mode ended because its timeout elapsed. */
  z.object({ ...eventBase, type: z.literal('leak_detection_timeout') }),
  z.object({
    ...eventBase,
    type: z.literal('autotest_result'),
    /** The autotest command that asked for it; null when started on the device. */
    command_id: z.uuid().nullable(),
    result: z.enum(AUTOTEST_RESULTS),
    checks: z.array(z.object({ name: shortText(40), result: z.enum(AUTOTEST_CHECK_RESULTS) })).max(20),
  }),
  /** Sent once the device is back up; the reason is why it went down. */
  z.object({ ...eventBase, type: z.literal('reboot'), reason: z.enum(REBOOT_REASONS) }),
  /** docs/firmware.md: each state of an update the device runs, with its progress while downloading. */
  z.object({
    ...eventBase,
    type: z.literal('firmware_progress'),
    /** The `update_id` of the `update_firmware` command. */
    update_id: z.uuid(),
    state: z.enum(DEVICE_FIRMWARE_STATES),
    version: shortText(40),
    progress_pct: z.number().min(0).max(100).nullable(),
    /** Bytes of the image received so far (downloading). */
    bytes: z.number().int().min(0).max(FIRMWARE_MAX_BYTES).nullable().optional(),
    /** Why it failed (`failed` only). */
    reason: z.enum(FIRMWARE_FAILURE_REASONS).nullable().optional(),
  }),
]);
export type DeviceEvent = z.infer<typeof DeviceEventSchema>;
export type DeviceEventType = DeviceEvent['type'];
export const DEVICE_EVENT_TYPES = DeviceEventSchema.options.map((o) => o.shape.type.value);

/**
 * Presence, retained. `online` on connection and then every heartbeat period; `offline` is the last
 * will (`connection_lost`, published by the broker) or said by the device before a clean stop.
 * The server dates a disconnection by its own clock: the will's `at` is the connection's time.
 */
export const PRESENCE_OFFLINE_REASONS = ['connection_lost', 'shutdown', 'reboot'] as const;
export const PresenceSchema = z.discriminatedUnion('status', [
  z.object({ v: version, at: timestamp, status: z.literal('online') }),
  z.object({
    v: version,
    at: timestamp,
    status: z.literal('offline'),
    reason: z.enum(PRESENCE_OFFLINE_REASONS),
  }),
]);
export type Presence = z.infer<typeof PresenceSchema>;

/** Leak-detection mode lasts at least a minute and at most a day before it times out. */
export const LEAK_DETECTION_MIN_TIMEOUT_S = 60;
export const LEAK_DETECTION_MAX_TIMEOUT_S = 86_400;

const empty = z.object({}).strict();
const commandBase = { v: version, id: z.uuid(), issued_at: timestamp, expires_at: timestamp };

/**
 * Commands from the server (spec §4 valve, modes, autotest, reboot, firmware update). A device
 * answers a name it does not know with a `refused` ack, so adding one never breaks older devices.
 */
export const CommandSchema = z
  .discriminatedUnion('name', [
    z.object({ ...commandBase, name: z.literal('open_valve'), params: empty }),
    z.object({ ...commandBase, name: z.literal('close_valve'), params: empty }),
    z.object({
      ...commandBase,
      name: z.literal('set_maintenance_mode'),
      params: z.object({ enabled: z.boolean() }),
    }),
    z.object({
      ...commandBase,
      name: z.literal('set_leak_detection_mode'),
      params: z.discriminatedUnion('enabled', [
        z.object({
          enabled: z.literal(true),
          timeout_s: z.number().int().min(LEAK_DETECTION_MIN_TIMEOUT_S).max(LEAK_DETECTION_MAX_TIMEOUT_S),
        }),
        z.object({ enabled: z.literal(false) }),
      ]),
    }),
    z.object({ ...commandBase, name: z.literal('autotest'), params: empty }),
    z.object({ ...commandBase, name: z.literal('reboot'), params: empty }),
    /** docs/firmware.md: fetch the image at `url` (HTTP Basic with the device's credentials), check, install. */
    z.object({
      ...commandBase,
      name: z.literal('update_firmware'),
      params: z.object({
        update_id: z.uuid(),
        version: z.string().regex(FIRMWARE_VERSION_PATTERN),
        file_name: shortText(120),
        size: z.number().int().min(1).max(FIRMWARE_MAX_BYTES),
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
        url: z.url({ protocol: /^https?$/ }).max(2048),
      }),
    }),
  ])
  .refine((c) => Date.parse(c.expires_at) > Date.parse(c.issued_at), {
    path: ['expires_at'],
    message: 'expires_at must follow issued_at',
  })
  .refine((c) => Date.parse(c.expires_at) - Date.parse(c.issued_at) <= COMMAND_MAX_TTL_S * 1000, {
    path: ['expires_at'],
    message: 'command lifetime too long',
  });
export type Command = z.infer<typeof CommandSchema>;
export type CommandName = Command['name'];
export const COMMAND_NAMES = [
  'open_valve',
  'close_valve',
  'set_maintenance_mode',
  'set_leak_detection_mode',
  'autotest',
  'reboot',
  'update_firmware',
] as const satisfies readonly CommandName[];

/**
 * The envelope every command keeps across versions: enough for a device to acknowledge (refuse) a
 * command it cannot read further.
 */
export const CommandEnvelopeSchema = z.object({ v: version, id: z.uuid(), name: z.string().max(64) });

/**
 * Acknowledgements. `accepted` is interim (a long command has started: autotest, reboot); `done`,
 * `refused` and `expired` are final. A command received again (QoS 1 redelivery, server retry) is
 * never run twice: the device repeats its final ack.
 */
export const ACK_RESULTS = ['accepted', 'done', 'refused', 'expired'] as const;
export type AckResult = (typeof ACK_RESULTS)[number];
export const FINAL_ACK_RESULTS = ['done', 'refused', 'expired'] as const satisfies readonly AckResult[];
export const ACK_REFUSAL_REASONS = [
  'unknown_command',
  'invalid_params',
  'unsupported_version',
  'busy',
  'hardware_fault',
] as const;
export type AckRefusalReason = (typeof ACK_REFUSAL_REASONS)[number];

export const AckSchema = z
  .object({
    v: version,
    command_id: z.uuid(),
    at: timestamp,
    result: z.enum(ACK_RESULTS),
    /** Why a command was refused; null otherwise. */
    reason: z.enum(ACK_REFUSAL_REASONS).nullable(),
  })
  .refine((a) => (a.result === 'refused') === (a.reason !== null), {
    path: ['reason'],
    message: 'a reason goes with refused, and only with it',
  });
export type Ack = z.infer<typeof AckSchema>;

/**
 * Pairing (spec §4, docs/protocol.md "Pairing"). In pairing mode the device, signed in with its
 * factory credential, announces itself; the server answers `pending` (step 2/3) until an operator
 * validates (`accepted`, carrying the device's own credentials, step 3/3) or refuses.
 */
export const PairingRequestSchema = z.object({
  v: version,
  /** Fresh per pairing attempt; repeated requests of one attempt keep it. */
  request_id: z.uuid(),
  serial: DeviceSerialSchema,
  at: timestamp,
  model: z.enum(FLOWBOX_MODELS),
  water_temperature: z.enum(WATER_TEMPERATURES),
  versions: DeviceVersionsSchema,
});
export type PairingRequest = z.infer<typeof PairingRequestSchema>;

export const PAIRING_REFUSAL_REASONS = [
  /** No pairing was prepared for this serial (step 1/3 not done). */
  'not_prepared',
  'refused_by_operator',
  'already_paired',
  'model_mismatch',
  'water_temperature_mismatch',
] as const;
export type PairingRefusalReason = (typeof PAIRING_REFUSAL_REASONS)[number];

export const PairingResponseSchema = z.discriminatedUnion('result', [
  z.object({ v: version, request_id: z.uuid(), result: z.literal('pending') }),
  z.object({
    v: version,
    request_id: z.uuid(),
    result: z.literal('accepted'),
    /** The broker user name from now on: the serial. */
    username: DeviceSerialSchema,
    password: DeviceSecretSchema,
    issued_at: timestamp,
  }),
  z.object({
    v: version,
    request_id: z.uuid(),
    result: z.literal('refused'),
    reason: z.enum(PAIRING_REFUSAL_REASONS),
  }),
]);
export type PairingResponse = z.infer<typeof PairingResponseSchema>;

/**
 * The server's end-to-end confirmation (docs/protocol.md "Confirmation of committed readings"):
 * the telemetry sequence numbers it has dealt with since its last confirmation, as inclusive
 * `[first, last]` ranges. Dealt with: committed (stored now, or found stored already), or refused
 * for good (a reading the server will never store, which sent again would be refused again). A
 * device removes these readings from its buffer; nothing else may.
 */
export const ConfirmSchema = z.object({
  v: version,
  /** Server clock. */
  at: timestamp,
  telemetry: z
    .array(
      z
        .tuple([sequence, sequence])
        .refine(([first, last]) => first <= last, { message: 'a range ends before it starts' }),
    )
    .max(CONFIRM_MAX_RANGES),
});
export type Confirm = z.infer<typeof ConfirmSchema>;
