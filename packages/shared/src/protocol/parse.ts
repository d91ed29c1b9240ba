import { z } from 'zod';
import {
  AckSchema,
  COMMAND_NAMES,
  ConfirmSchema,
  CommandEnvelopeSchema,
  CommandSchema,
  DeviceEventSchema,
  DeviceStateSchema,
  PairingRequestSchema,
  PairingResponseSchema,
  PresenceSchema,
  TelemetrySchema,
  type Ack,
  type Command,
  type Confirm,
  type DeviceEvent,
  type DeviceState,
  type PairingRequest,
  type PairingResponse,
  type Presence,
  type Telemetry,
} from './messages.ts';
import { checkTelemetry } from './telemetry-check.ts';
import { MAX_PAYLOAD_BYTES, PROTOCOL_VERSION, parseTopic } from './topics.ts';

/**
 * Strict parsers for everything that crosses the broker. They never throw: ingest counts the
 * reason of each refusal and drops the message (issue #4), so one bad device cannot stall others.
 */
export const PARSE_FAILURE_REASONS = [
  'unknown_topic',
  'not_device_topic',
  'too_large',
  'not_utf8',
  'not_json',
  'unsupported_version',
  'unknown_command',
  'invalid_schema',
  'serial_mismatch',
] as const;
export type ParseFailureReason = (typeof PARSE_FAILURE_REASONS)[number];

export type ParseFailure = { ok: false; reason: ParseFailureReason; detail: string };
export type Parsed<T> = { ok: true; message: T } | ParseFailure;

export type Payload = Uint8Array | string;

const utf8 = new TextDecoder('utf-8', { fatal: true });

function fail(reason: ParseFailureReason, detail = ''): ParseFailure {
  return { ok: false, reason, detail };
}

/** Size, UTF-8 and JSON checks shared by every payload. */
function readJson(payload: Payload): { ok: true; value: unknown } | ParseFailure {
  const bytes = typeof payload === 'string' ? new TextEncoder().encode(payload) : payload;
  if (bytes.byteLength > MAX_PAYLOAD_BYTES) return fail('too_large', `${bytes.byteLength} bytes`);
  let text: string;
  try {
    text = typeof payload === 'string' ? payload : utf8.decode(bytes);
  } catch {
    return fail('not_utf8');
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return fail('not_json');
  }
}

function versionOf(value: unknown): unknown {
  return typeof value === 'object' && value !== null && 'v' in value ? value.v : undefined;
}

/** `check`: a hand-written equivalent of the schema that answers only the messages it accepts. */
function parseWith<T>(
  schema: z.ZodType<T>,
  payload: Payload,
  check?: (value: unknown) => T | undefined,
): Parsed<T> {
  const json = readJson(payload);
  if (!json.ok) return json;
  const checked = check?.(json.value);
  if (checked) return { ok: true, message: checked };
  if (versionOf(json.value) !== PROTOCOL_VERSION)
    return fail('unsupported_version', String(versionOf(json.value)));
  const result = schema.safeParse(json.value);
  if (result.success) return { ok: true, message: result.data };
  const issue = result.error.issues[0];
  return fail('invalid_schema', issue ? `${issue.path.join('.')}: ${issue.message}` : '');
}

/** Telemetry, the bulk of device traffic: checked without zod first (`telemetry-check.ts`). */
export const parseTelemetry = (payload: Payload): Parsed<Telemetry> =>
  parseWith(TelemetrySchema, payload, checkTelemetry);
export const parseDeviceState = (payload: Payload): Parsed<DeviceState> =>
  parseWith(DeviceStateSchema, payload);
export const parseDeviceEvent = (payload: Payload): Parsed<DeviceEvent> =>
  parseWith(DeviceEventSchema, payload);
export const parseAck = (payload: Payload): Parsed<Ack> => parseWith(AckSchema, payload);
export const parsePresence = (payload: Payload): Parsed<Presence> => parseWith(PresenceSchema, payload);
export const parsePairingRequest = (payload: Payload): Parsed<PairingRequest> =>
  parseWith(PairingRequestSchema, payload);
export const parsePairingResponse = (payload: Payload): Parsed<PairingResponse> =>
  parseWith(PairingResponseSchema, payload);
export const parseConfirm = (payload: Payload): Parsed<Confirm> => parseWith(ConfirmSchema, payload);

/** A message a device published, with the serial its topic names. */
export type DeviceMessage =
  | { kind: 'telemetry'; serial: string; message: Telemetry }
  | { kind: 'state'; serial: string; message: DeviceState }
  | { kind: 'events'; serial: string; message: DeviceEvent }
  | { kind: 'acks'; serial: string; message: Ack }
  | { kind: 'presence'; serial: string; message: Presence }
  | { kind: 'pairing/request'; serial: string; message: PairingRequest };

/**
 * The server's one entry point for ingest: topic and payload in, a typed message or a reason out.
 * `serial` is set on failures whenever the topic named one, so refusals can be counted per device.
 */
export function parseDeviceMessage(
  topic: string,
  payload: Payload,
): { ok: true; value: DeviceMessage } | (ParseFailure & { serial: string | null }) {
  const parsed = parseTopic(topic);
  if (!parsed) return { ...fail('unknown_topic', topic.slice(0, 200)), serial: null };
  const { serial, kind } = parsed;
  switch (kind) {
    case 'telemetry': {
      const r = parseTelemetry(payload);
      return r.ok ? { ok: true, value: { kind, serial, message: r.message } } : refused(r, serial);
    }
    case 'state': {
      const r = parseDeviceState(payload);
      return r.ok ? { ok: true, value: { kind, serial, message: r.message } } : refused(r, serial);
    }
    case 'events': {
      const r = parseDeviceEvent(payload);
      return r.ok ? { ok: true, value: { kind, serial, message: r.message } } : refused(r, serial);
    }
    case 'acks': {
      const r = parseAck(payload);
      return r.ok ? { ok: true, value: { kind, serial, message: r.message } } : refused(r, serial);
    }
    case 'presence': {
      const r = parsePresence(payload);
      return r.ok ? { ok: true, value: { kind, serial, message: r.message } } : refused(r, serial);
    }
    case 'pairing/request': {
      const r = parsePairingRequest(payload);
      if (!r.ok) return refused(r, serial);
      // The payload's serial must be the topic's: the ACL vouches only for the topic.
      if (r.message.serial !== serial) return refused(fail('serial_mismatch', r.message.serial), serial);
      return { ok: true, value: { kind, serial, message: r.message } };
    }
    case 'commands':
    case 'pairing/response':
    case 'confirm':
      return refused(fail('not_device_topic', kind), serial);
  }
}

/** A failure naming the topic's serial (a function of the module: no closure per device message). */
const refused = (failure: ParseFailure, serial: string) => ({ ...failure, serial });

const CommandIdSchema = z.object({ id: z.uuid() });

/**
 * The device's parser of commands. A failure keeps the command id when the envelope was readable,
 * so the device can answer `refused` (unknown name, bad parameters, newer version) instead of
 * leaving the server to retry until expiry.
 */
export function parseCommand(
  payload: Payload,
): { ok: true; message: Command } | (ParseFailure & { commandId: string | null }) {
  const json = readJson(payload);
  if (!json.ok) return { ...json, commandId: null };
  const envelope = CommandEnvelopeSchema.safeParse(json.value);
  const withId = CommandIdSchema.safeParse(json.value);
  const commandId = withId.success ? withId.data.id : null;
  if (versionOf(json.value) !== PROTOCOL_VERSION)
    return { ...fail('unsupported_version', String(versionOf(json.value))), commandId };
  if (envelope.success && !(COMMAND_NAMES as readonly string[]).includes(envelope.data.name))
    return { ...fail('unknown_command', envelope.data.name), commandId };
  const result = CommandSchema.safeParse(json.value);
  if (result.success) return { ok: true, message: result.data };
  const issue = result.error.issues[0];
  return { ...fail('invalid_schema', issue ? `${issue.path.join('.')}: ${issue.message}` : ''), commandId };
}

/** Serialises a protocol message; the one place payloads are written, so both ends agree. */
export function encodePayload(message: object): string {
  return JSON.stringify(message);
}
