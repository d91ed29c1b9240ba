import { z } from 'zod';

/**
 * The flowbox device protocol over MQTT (DESIGN.md §3, docs/protocol.md): topics, delivery
 * settings, identities and the access rules every broker enforces. Shared by the server's ingest,
 * the broker's authoriser and the simulator, so the two ends cannot drift apart.
 */

/** Major version carried by every payload as `v`; bumped only by a breaking change. */
export const PROTOCOL_VERSION = 1;

/** Every device topic starts with this root: `flowbox/{serial}/…`. */
export const TOPIC_ROOT = 'flowbox';

/**
 * A factory serial, as the API's `SerialSchema` accepts it: letters, digits, `_` and `-`. It is a
 * topic level and a broker user name, so it can never hold the MQTT wildcards `+` `#`, a `/`, the
 * `:` of password files, or the `.` that separates the bootstrap prefix.
 */
export const SERIAL_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
export const DeviceSerialSchema = z.string().regex(SERIAL_PATTERN, 'validation.invalid');

/** What a topic carries; the last level(s) of `flowbox/{serial}/…`. */
export const TOPIC_KINDS = [
  'telemetry',
  'state',
  'events',
  'acks',
  'presence',
  'commands',
  'pairing/request',
  'pairing/response',
  'confirm',
] as const;
export type TopicKind = (typeof TOPIC_KINDS)[number];

/** Who publishes each kind: the device or the server. */
export const TOPIC_PUBLISHER: Record<TopicKind, 'device' | 'server'> = {
  telemetry: 'device',
  state: 'device',
  events: 'device',
  acks: 'device',
  presence: 'device',
  commands: 'server',
  'pairing/request': 'device',
  'pairing/response': 'server',
  confirm: 'server',
};

/**
 * QoS 1 (DESIGN.md §3): at-least-once delivery, made exactly-once in effect by the idempotent
 * ingest keyed on (serial, seq) and by command ids. QoS 2 would cost a second round trip per message
 * for nothing the keys do not already give. One exception, `confirm`, QoS 0: a lost confirmation
 * costs only a replay the idempotent ingest absorbs, and a QoS 0 message is never queued for an
 * offline session, so a confirmation cannot outlive the connection (and credentials) it was meant for.
 */
export const TOPIC_QOS: Record<TopicKind, 0 | 1> = {
  telemetry: 1,
  state: 1,
  events: 1,
  acks: 1,
  presence: 1,
  commands: 1,
  'pairing/request': 1,
  'pairing/response': 1,
  confirm: 0,
};

/**
 * Retained: only the latest state and presence matter to a new subscriber (a restarted server
 * instance learns every device's valve and connection at once). Everything else is a stream.
 */
export const TOPIC_RETAINED: Record<TopicKind, boolean> = {
  telemetry: false,
  state: true,
  events: false,
  acks: false,
  presence: true,
  commands: false,
  'pairing/request': false,
  'pairing/response': false,
  confirm: false,
};

/** Largest payload accepted on any topic; anything bigger is dropped unread. */
export const MAX_PAYLOAD_BYTES = 4096;

/** Default telemetry interval; a device may use any whole number of seconds in the bounds. */
export const TELEMETRY_INTERVAL_S = 60;
export const MIN_TELEMETRY_INTERVAL_S = 1;
export const MAX_TELEMETRY_INTERVAL_S = 3600;

/**
 * Presence: a device republishes `online` once a heartbeat period passed without it sending anything
 * (any message says it is there); the server calls it disconnected after three silent periods even
 * if the broker never fired the last will (half-open TCP).
 */
export const HEARTBEAT_PERIOD_S = 60;
export const HEARTBEAT_TIMEOUT_S = 3 * HEARTBEAT_PERIOD_S;

/**
 * Reconnection after a lost connection or a refused CONNECT (docs/protocol.md "Reconnecting"): the
 * n-th attempt in a row waits a random time between half and all of min(RECONNECT_MAX_S,
 * RECONNECT_BASE_S × 2^n), so a fleet that lost its broker at once does not come back at once.
 */
export const RECONNECT_BASE_S = 2;
export const RECONNECT_MAX_S = 60;

/** The wait before the `attempt`-th reconnection in a row (0 first), from a base; `random` in [0, 1). */
export function reconnectDelayMs(
  attempt: number,
  random: number,
  baseMs = RECONNECT_BASE_S * 1000,
  maxMs = RECONNECT_MAX_S * 1000,
): number {
  const window = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 16));
  return Math.round(window / 2 + (window / 2) * random);
}
/** MQTT keep-alive: the broker publishes the last will after 1.5 × this without a packet. */
export const MQTT_KEEPALIVE_S = 60;

/** Commands: default lifetime, longest allowed lifetime, and the server's re-send period. */
export const COMMAND_DEFAULT_TTL_S = 120;
export const COMMAND_MAX_TTL_S = 86_400;
export const COMMAND_RETRY_S = 10;

/** A device keeps at most this many unsent messages while offline (a week of minute telemetry). */
export const OFFLINE_BUFFER_MAX_MESSAGES = 10_080;

/**
 * End-to-end confirmation (docs/protocol.md "Confirmation of committed readings"): the server tells
 * each device, at most once per `CONFIRM_PERIOD_S`, which telemetry sequence numbers it has dealt
 * with (stored now or before, or refused for good); the device keeps every reading until then and
 * sends again what stays unconfirmed `CONFIRM_TIMEOUT_S` after the broker acknowledged it, and on
 * every reconnection. A broker's PUBACK is not the server's commit.
 */
export const CONFIRM_PERIOD_S = 1;
export const CONFIRM_TIMEOUT_S = 30;
/** Ranges in one confirmation, so that it stays well under `MAX_PAYLOAD_BYTES`; more go in several. */
export const CONFIRM_MAX_RANGES = 64;

/** A device waiting in pairing mode repeats its request this often until answered. */
export const PAIRING_REQUEST_RETRY_S = 30;

/** The topic of one device's messages of one kind. */
export function deviceTopic(serial: string, kind: TopicKind): string {
  return `${TOPIC_ROOT}/${serial}/${kind}`;
}

/** The filter matching one kind of message from every device (`flowbox/+/telemetry`). */
export function allDevicesFilter(kind: TopicKind): string {
  return `${TOPIC_ROOT}/+/${kind}`;
}

/**
 * The MQTT 5 shared subscription through which several server instances split ingest
 * (DESIGN.md §7): each message goes to one member of the `ingest` group.
 */
export function sharedIngestFilter(kind: TopicKind): string {
  return `$share/ingest/${allDevicesFilter(kind)}`;
}

/**
 * The server's delivery probe (docs/protocol.md "The server's delivery probe"): each ingest
 * connection publishes to its own topic under `flowbox/.server/`, subscribed in the same SUBSCRIBE as
 * the device topics, and expects it back. `.` is in no serial, so no device owns or may use it.
 */
export const SERVER_PROBE_ROOT = `${TOPIC_ROOT}/.server/probe`;

export function serverProbeTopic(connectionId: string): string {
  return `${SERVER_PROBE_ROOT}/${connectionId}`;
}

/** Reads a topic back into serial and kind; null for anything outside the protocol. */
const ROOT_PREFIX = `${TOPIC_ROOT}/`;

export function parseTopic(topic: string): { serial: string; kind: TopicKind } | null {
  // flowbox/{serial}/{kind}, where a kind has one or two levels. Read with indexOf, not split:
  // every message a device sends passes here twice (the broker's ACL, then the parser).
  if (!topic.startsWith(ROOT_PREFIX)) return null;
  const slash = topic.indexOf('/', ROOT_PREFIX.length);
  if (slash < 0) return null;
  const serial = topic.slice(ROOT_PREFIX.length, slash);
  const kind = topic.slice(slash + 1);
  if (!SERIAL_PATTERN.test(serial) || !isTopicKind(kind)) return null;
  return { serial, kind };
}

function isTopicKind(kind: string): kind is TopicKind {
  return (TOPIC_KINDS as readonly string[]).includes(kind);
}

/**
 * Broker identities. A paired device signs in with its serial as user name and the secret issued
 * at pairing. Before that, in pairing mode, it signs in as `bootstrap.{serial}` with its factory
 * secret, which opens the two pairing topics only. A serial never holds a `.`, so the two kinds of
 * name cannot be confused.
 */
export const BOOTSTRAP_USERNAME_PREFIX = 'bootstrap.';

export function bootstrapUsername(serial: string): string {
  return `${BOOTSTRAP_USERNAME_PREFIX}${serial}`;
}

export type DeviceIdentity = { role: 'device' | 'bootstrap'; serial: string };

/** The identity a broker user name claims, or null when it is no device's name. */
export function identityFromUsername(username: string | undefined): DeviceIdentity | null {
  if (username === undefined) return null;
  if (username.startsWith(BOOTSTRAP_USERNAME_PREFIX)) {
    const serial = username.slice(BOOTSTRAP_USERNAME_PREFIX.length);
    return SERIAL_PATTERN.test(serial) ? { role: 'bootstrap', serial } : null;
  }
  return SERIAL_PATTERN.test(username) ? { role: 'device', serial: username } : null;
}

/** Device secrets and factory secrets: 32 random bytes, base64url without padding. */
export const DEVICE_SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const DeviceSecretSchema = z.string().regex(DEVICE_SECRET_PATTERN, 'validation.invalid');

const DEVICE_PUBLISHES: readonly TopicKind[] = ['telemetry', 'state', 'events', 'acks', 'presence'];

/**
 * The ACL (docs/protocol.md "Credentials and ACL"): exact topics only, never a wildcard, and only
 * under the identity's own serial. A device signed in with its own credentials may also use the
 * pairing topics, for installers who typed in the credentials shown when pairing was prepared.
 * The embedded broker calls these for every publish (the last will included) and subscription.
 */
export function mayPublish(identity: DeviceIdentity, topic: string): boolean {
  const parsed = parseTopic(topic);
  if (!parsed || parsed.serial !== identity.serial) return false;
  if (parsed.kind === 'pairing/request') return true;
  return identity.role === 'device' && DEVICE_PUBLISHES.includes(parsed.kind);
}

export function maySubscribe(identity: DeviceIdentity, filter: string): boolean {
  if (filter === deviceTopic(identity.serial, 'pairing/response')) return true;
  return (
    identity.role === 'device' &&
    (filter === deviceTopic(identity.serial, 'commands') ||
      filter === deviceTopic(identity.serial, 'confirm'))
  );
}
