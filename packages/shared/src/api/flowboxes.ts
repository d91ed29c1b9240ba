import { z } from 'zod';
import { AutomationSchema } from '../automation/settings.ts';
import { AlertSchema } from './alerts.ts';
import { FirmwareUpdateSchema } from './firmware.ts';
import { ROLLOUT_STATES } from '../firmware.ts';
import { SCHEDULE_LIVE_CHANGES } from './schedules.ts';
import { LEAK_DETECTION_MAX_TIMEOUT_S } from '../protocol/messages.ts';
import { DeviceSecretSchema, SERIAL_PATTERN } from '../protocol/topics.ts';
import { uuidField } from '../validation.ts';
import { FLOWBOX_MODELS, VALVE_STATES, WATER_TEMPERATURES } from '../domain/flowboxes.ts';

/** spec §4 flowbox pairing state: init (1/3), pending (2/3), ready (3/3). */
export const PAIRING_STATES = ['init', 'pending', 'ready'] as const;
export type PairingState = (typeof PAIRING_STATES)[number];
export const PAIRING_STEP: Record<PairingState, 1 | 2 | 3> = { init: 1, pending: 2, ready: 3 };

/** spec §4 connection: connected, disconnected (since a datetime) or never connected. */
export const CONNECTION_STATES = ['connected', 'disconnected', 'never'] as const;
export type ConnectionState = (typeof CONNECTION_STATES)[number];

/** A serial as typed from the device's label (the protocol's pattern: it is a topic level and a user name). */
export const SerialSchema = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, 'validation.required')
  .max(64, 'validation.too_long')
  .regex(SERIAL_PATTERN, 'validation.invalid');

/** Step 1 of spec §2's pairing flow ("prepare pairing"): which device goes in this zone. */
export const PairingPrepareSchema = z.object({
  serial: SerialSchema,
  /** The secret on the device's label: the device proves it when it asks for pairing (docs/devices.md). */
  factory_secret: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, 'validation.required')
    .pipe(DeviceSecretSchema),
  /** spec §3 floor "paired flowbox": the floor of the zone's building where it is fitted. */
  floor_id: uuidField.nullable().optional(),
});
export type PairingPrepareInput = z.input<typeof PairingPrepareSchema>;

/** Detaching needs confirmation (spec §4): the serial, typed. */
export const DetachSchema = z.object({
  confirm_name: z.string({ error: 'validation.required' }).max(500, 'validation.too_long'),
});

export const FlowboxSchema = z.object({
  id: z.uuid(),
  serial: z.string(),
  customer_id: z.uuid(),
  site_id: z.uuid(),
  building_id: z.uuid(),
  zone_id: z.uuid(),
  floor_id: z.uuid().nullable(),
  pairing_state: z.enum(PAIRING_STATES),
  pairing_step: z.number().int().min(1).max(3),
  paired_at: z.string().nullable(),
  /** What the device said it is when it announced itself (step 2); null before. */
  model: z.enum(FLOWBOX_MODELS).nullable(),
  water_temperature: z.enum(WATER_TEMPERATURES).nullable(),
  connection: z.enum(CONNECTION_STATES),
  /** When the connection last changed (the "disconnected since" of spec §4); null if never. */
  connection_since: z.string().nullable(),
  last_seen_at: z.string().nullable(),
  /** Degrees Celsius and relative humidity in %, as last reported. */
  temperature: z.number().nullable(),
  humidity: z.number().nullable(),
  /** The flowmeter: current flow in litres a minute and its index (total litres counted). */
  flow_lpm: z.number().nullable(),
  flowmeter_index_l: z.number().nullable(),
  /**
   * The device's clock against the server's, in whole seconds (docs/automation.md "Device clocks"):
   * positive when the device is ahead, negative when behind; null before its first reading.
   */
  clock_skew_s: z.number().int().nullable(),
  /** Whether that skew is beyond CLOCK_SKEW_ALERT_S either way (the flowbox_internal_status alert's bound). */
  clock_skew_alarming: z.boolean(),
  valve: z.enum(VALVE_STATES).nullable(),
  maintenance_mode: z.boolean().nullable(),
  leak_detection_mode: z.boolean().nullable(),
  network_interface: z.string().nullable(),
  network_address: z.string().nullable(),
  network_gateway: z.string().nullable(),
  wifi_ssid: z.string().nullable(),
  esp_version: z.string().nullable(),
  board_version: z.string().nullable(),
  firmware_version: z.string().nullable(),
  created_at: z.string(),
});
export type Flowbox = z.infer<typeof FlowboxSchema>;

/** The commands a user sends a flowbox from the web (issue #4). */
export const FLOWBOX_COMMANDS = [
  'valve_open',
  'valve_close',
  'maintenance_on',
  'maintenance_off',
  'leak_detection_on',
  'leak_detection_off',
  'autotest',
  'reboot',
] as const;
export type FlowboxCommandName = (typeof FLOWBOX_COMMANDS)[number];

/** pending: not yet sent; sent: waiting for the acknowledgement; acked: accepted, running; the rest are final. */
export const COMMAND_STATUSES = ['pending', 'sent', 'acked', 'done', 'refused', 'expired'] as const;
export type CommandStatus = (typeof COMMAND_STATUSES)[number];
export const FINAL_COMMAND_STATUSES: readonly CommandStatus[] = ['done', 'refused', 'expired'];

/** The protocol's bounds (docs/protocol.md), in the minutes the API speaks. */
export const LEAK_DETECTION_TIMEOUT_MAX_MIN = LEAK_DETECTION_MAX_TIMEOUT_S / 60;

export const FlowboxCommandCreateSchema = z.discriminatedUnion(
  'name',
  [
    z.object({
      name: z.literal('leak_detection_on'),
      /** The device leaves leak-detection mode by itself after this many minutes (spec §4 timeout event). */
      timeout_minutes: z
        .number({ error: 'validation.number' })
        .int('validation.integer')
        .min(1, 'validation.min_one')
        .max(LEAK_DETECTION_TIMEOUT_MAX_MIN, 'validation.max')
        .default(60),
    }),
    z.object({
      name: z.enum(
        FLOWBOX_COMMANDS.filter((c) => c !== 'leak_detection_on') as [
          Exclude<FlowboxCommandName, 'leak_detection_on'>,
          ...Exclude<FlowboxCommandName, 'leak_detection_on'>[],
        ],
      ),
    }),
  ],
  // A command name nobody knows is "select an option"; a body that is no object is just invalid.
  {
    error: (issue) =>
      typeof issue.input === 'object' && issue.input !== null && !Array.isArray(issue.input)
        ? 'validation.select'
        : 'validation.invalid',
  },
);
export type FlowboxCommandCreateInput = z.input<typeof FlowboxCommandCreateSchema>;

export const FlowboxCommandSchema = z.object({
  id: z.uuid(),
  flowbox_id: z.uuid(),
  name: z.enum(FLOWBOX_COMMANDS),
  params: z.record(z.string(), z.unknown()),
  status: z.enum(COMMAND_STATUSES),
  attempts: z.number().int(),
  issued_at: z.string(),
  expires_at: z.string(),
  completed_at: z.string().nullable(),
  /** What the device answered (autotest outcome, refusal reason…), as it sent it. */
  result: z.record(z.string(), z.unknown()).nullable(),
  issued_by: z.uuid().nullable(),
});
export type FlowboxCommand = z.infer<typeof FlowboxCommandSchema>;

/**
 * What the live channel (`GET /v1/live`, DESIGN.md §6) pushes: a flowbox's new state, its removal,
 * a command's new status, or new consumption in a zone. Each names its customer and site, which decide who receives it.
 */
export const LiveMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('flowbox'), flowbox: FlowboxSchema }),
  z.object({
    type: z.literal('flowbox_removed'),
    flowbox_id: z.uuid(),
    customer_id: z.uuid(),
    site_id: z.uuid(),
    zone_id: z.uuid(),
  }),
  z.object({
    type: z.literal('command'),
    command: FlowboxCommandSchema,
    customer_id: z.uuid(),
    site_id: z.uuid(),
    zone_id: z.uuid(),
  }),
  /**
   * New telemetry was committed for a zone (issue #6): at most one per zone per second, so open
   * graphs and dashboards refetch. The figures are the readings stored since the previous message.
   */
  z.object({
    type: z.literal('consumption'),
    customer_id: z.uuid(),
    site_id: z.uuid(),
    building_id: z.uuid(),
    zone_id: z.uuid(),
    readings: z.number().int(),
    volume_ml: z.number().int(),
    /** The newest `measured_at` among those readings (a replay may bring older ones). */
    latest_measured_at: z.string(),
  }),
  /** A zone's automatic closing changed: settings, triggered (locked), confirmed, exited (issue #8). */
  z.object({
    type: z.literal('automation'),
    automation: AutomationSchema,
    customer_id: z.uuid(),
    site_id: z.uuid(),
    zone_id: z.uuid(),
  }),
  /**
   * A zone's scheduled closings changed (docs/schedules.md): open schedule cards read the zone's
   * schedules and next windows again. `schedule_id` is null for a window whose schedule was deleted.
   */
  z.object({
    type: z.literal('schedule'),
    change: z.enum(SCHEDULE_LIVE_CHANGES),
    schedule_id: z.uuid().nullable(),
    customer_id: z.uuid(),
    site_id: z.uuid(),
    building_id: z.uuid(),
    zone_id: z.uuid(),
  }),
  /** An alert opened, repeated, silenced, unsilenced or resolved (docs/alerts.md). */
  z.object({
    type: z.literal('alert'),
    alert: AlertSchema,
    customer_id: z.uuid(),
    site_id: z.uuid(),
    zone_id: z.uuid(),
  }),
  /** A flowbox's firmware update changed state or progress (docs/firmware.md). */
  z.object({
    type: z.literal('firmware_update'),
    update: FirmwareUpdateSchema.omit({ steps: true }),
    customer_id: z.uuid(),
    site_id: z.uuid(),
    zone_id: z.uuid(),
  }),
  /**
   * A rollout changed (state, wave, counts): open rollout pages read it again. Its place decides
   * who receives it: null customer, the whole fleet (provider managers); null site, a customer.
   */
  z.object({
    type: z.literal('firmware_rollout'),
    rollout_id: z.uuid(),
    state: z.enum(ROLLOUT_STATES),
    customer_id: z.uuid().nullable(),
    site_id: z.uuid().nullable(),
  }),
]);
export type LiveMessage = z.infer<typeof LiveMessageSchema>;

/** A short-lived ticket for `GET /v1/live?ticket=…`: EventSource cannot send the Bearer header. */
export const LiveTicketSchema = z.object({ ticket: z.string(), expires_in: z.number().int() });
export type LiveTicket = z.infer<typeof LiveTicketSchema>;
