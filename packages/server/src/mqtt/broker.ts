import { randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { Aedes, type Client } from 'aedes';
import { identityFromUsername, mayPublish, maySubscribe, type DeviceIdentity } from '@flowbox/shared';
import type { BrokerCounters, DeviceAuthenticator } from '../devices/index.ts';
import { addressKey, connectionLimit } from '../net/connection-limit.ts';
import { guardPacketSize } from './packet-guard.ts';

export type Logger = {
  info: (obj: object, msg: string) => void;
  warn: (obj: object, msg: string) => void;
  error: (obj: object, msg: string) => void;
};

export class PortInUseError extends Error {}

/**
 * The largest packet a connection may announce (its remaining length): the protocol's payloads are
 * at most MAX_PAYLOAD_BYTES (4 KiB), topics under 100 bytes; a CONNECT carries a client id, a user
 * name, a 43-character secret and a presence will. Twice the payload leaves room; anything more is
 * closed unread (docs/protocol.md "Credentials and the ACL").
 */
export const MAX_PACKET_BYTES = 8192;

/** What one connection may hold of the broker (docs/reliability.md "Connection floods and timeouts"). */
export type BrokerLimits = {
  /**
   * Simultaneous connections of one remote address (MQTT_MAX_CONNECTIONS_PER_ADDRESS). No cap unless
   * given: the product's comes from its configuration; benchmarks run thousands of devices from one.
   */
  maxConnectionsPerAddress: number;
  /** How long a new connection has to send its complete CONNECT (MQTT_CONNECT_TIMEOUT_S). */
  connectTimeoutMs: number;
  /**
   * A connection silent this long is closed. Aedes closes a client silent for 1.5 × its keep-alive;
   * this bounds those announcing none (0) or hours: devices use 60 s (MQTT_KEEPALIVE_S).
   */
  idleTimeoutMs: number;
};

export const DEFAULT_BROKER_LIMITS: BrokerLimits = {
  maxConnectionsPerAddress: Infinity,
  connectTimeoutMs: 10_000,
  idleTimeoutMs: 300_000,
};

export type EmbeddedBroker = {
  describe: string;
  /** Where the server's own ingest connects, with credentials only this process knows. */
  internalUrl: string;
  internalCredentials: { username: string; password: string };
  counters: BrokerCounters;
  /** Closes every connection of the serial (credentials revoked). */
  disconnect: (serial: string) => void;
  close: () => Promise<void>;
};

/** The server's own user name; a device user name is a serial or `bootstrap.{serial}`, never this. */
const INTERNAL_USERNAME = '$flowbox-server';
/**
 * What a device publishes that the server stores: taken before the PUBACK (see `takeMessage`).
 * Presence stays routed: its last will is published by the broker itself, and a device repeats
 * it every heartbeat; pairing requests are repeated until answered.
 */
const TAKEN_KINDS = ['telemetry', 'events', 'acks', 'state'];
const isTaken = (topic: string) => TAKEN_KINDS.some((kind) => topic.endsWith(`/${kind}`));

/**
 * The embedded Aedes broker (DESIGN.md §2, §3). Each device signs in with its own credentials and
 * may publish and subscribe only the exact topics of its identity (docs/protocol.md "Credentials
 * and the ACL"); everything else is refused and counted. The server's ingest is the one privileged
 * client, with a secret generated at each start.
 */
export async function startEmbeddedBroker(
  port: number,
  host: string,
  log: Logger,
  authenticateDevice: DeviceAuthenticator,
  /**
   * Takes a device's telemetry, events, acks and states straight from the broker (issues #6, #20):
   * the device's PUBACK is sent only once this resolves (the message stored, or dropped for good);
   * if it rejects, the connection is closed unacknowledged and the device sends the message again
   * when it reconnects. Without it, they are routed to subscribers like any message.
   */
  takeMessage?: (topic: string, payload: Buffer) => Promise<void>,
  limits: Partial<BrokerLimits> = {},
): Promise<EmbeddedBroker> {
  const { maxConnectionsPerAddress, connectTimeoutMs, idleTimeoutMs } = {
    ...DEFAULT_BROKER_LIMITS,
    ...limits,
  };
  const internalPassword = randomBytes(32).toString('base64url');
  const identities = new WeakMap<Client, DeviceIdentity | 'internal'>();
  const clientsBySerial = new Map<string, Set<Client>>();
  const counters: BrokerCounters = {
    connected: 0,
    connections_accepted: 0,
    refused_unknown_identity: 0,
    refused_unknown_serial: 0,
    refused_wrong_secret: 0,
    refused_client_id: 0,
    refused_publish: 0,
    refused_subscribe: 0,
    refused_connection_limit: 0,
    closed_packet_too_large: 0,
    closed_connect_timeout: 0,
    closed_idle: 0,
  };
  const warn = warnOncePerMinute(log);
  const refuse = (
    cause: 'unknown_identity' | 'unknown_serial' | 'wrong_secret' | 'client_id',
    client: Client,
    username?: string,
  ) => {
    counters[`refused_${cause}`] += 1;
    const address = addressOf(client);
    warn(`${cause} ${address}`, { clientId: client.id, username, cause }, 'mqtt connection refused');
  };

  const broker = await Aedes.createBroker({
    connectTimeout: connectTimeoutMs,
    authenticate: (client, username, password, done) => {
      const secret = password?.toString('utf8') ?? '';
      if (username === INTERNAL_USERNAME) {
        if (secret !== internalPassword) {
          refuse('wrong_secret', client, username);
          return done(null, false);
        }
        identities.set(client, 'internal');
        return done(null, true);
      }
      const identity = identityFromUsername(username);
      if (!identity) {
        refuse('unknown_identity', client, username);
        return done(null, false);
      }
      authenticateDevice(identity, secret).then(
        (verdict) => {
          if (verdict !== 'ok') {
            refuse(verdict === 'unknown' ? 'unknown_serial' : 'wrong_secret', client, username);
            return done(null, false);
          }
          // A client id names the session: another device's would take over its connection and,
          // with a persistent session, its queued commands. Aedes names an empty id `aedes_{uuid}`,
          // so an empty one is refused too (docs/protocol.md "Credentials and the ACL").
          // Refused as "identifier rejected" (CONNACK 2), not "not authorised": a device reads the
          // latter as its credentials revoked, and a misconfigured client id is no unpairing.
          if (client.id !== username) {
            refuse('client_id', client, username);
            return done(
              Object.assign(new Error('client id must be the user name'), { returnCode: 2 as const }),
              false,
            );
          }
          identities.set(client, identity);
          const clients = clientsBySerial.get(identity.serial) ?? new Set<Client>();
          clients.add(client);
          clientsBySerial.set(identity.serial, clients);
          counters.connections_accepted += 1;
          done(null, true);
        },
        (error: unknown) => {
          log.error({ err: error }, 'mqtt authentication failed');
          done(null, false);
        },
      );
    },
    authorizePublish: (client, packet, done) => {
      const identity = client ? identities.get(client) : 'internal';
      if (identity === 'internal') return done(null);
      if (identity && mayPublish(identity, packet.topic)) {
        // Aedes writes the PUBACK (QoS 1) only after this callback: the reading is committed first.
        // Packets read in one socket chunk come here together, so a device's queue batches too.
        if (takeMessage && identity.role === 'device' && isTaken(packet.topic))
          return void takeMessage(packet.topic, packet.payload as Buffer).then(
            () => {
              taken.add(packet);
              // A batch settles all its readings in one tick: a device's PUBACKs go out in one write.
              const conn = client?.conn;
              conn?.cork();
              done(null);
              if (conn) process.nextTick(() => conn.uncork());
            },
            (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
          );
        return done(null);
      }
      counters.refused_publish += 1;
      log.warn({ clientId: client?.id, topic: packet.topic.slice(0, 200) }, 'mqtt publish refused');
      done(new Error('publish not authorised'));
    },
    authorizeSubscribe: (client, subscription, done) => {
      const identity = identities.get(client);
      if (identity === 'internal' || (identity && maySubscribe(identity, subscription.topic)))
        return done(null, subscription);
      counters.refused_subscribe += 1;
      log.warn({ clientId: client.id, topic: subscription.topic.slice(0, 200) }, 'mqtt subscription refused');
      done(null, null);
    },
  });
  // A message handed to ingest is stored and acknowledged: routing it on through Aedes (retained
  // store, offline queues, the emitter) would be work for nothing on the busiest path, and would
  // hand it to the server's own client (subscribed to the device topics) to be applied twice.
  const taken = new WeakSet<object>();
  // At run time Aedes' publish is (packet, client, done); its typings show the public two-argument form.
  type Done = (error?: Error | null) => void;
  const routed = broker as unknown as { publish: (packet: object, client: unknown, done?: Done) => void };
  const publish = routed.publish.bind(broker);
  routed.publish = (packet, client, done) => {
    if (taken.has(packet)) return (typeof client === 'function' ? (client as Done) : done)?.(null);
    publish(packet, client, done);
  };
  broker.on('clientDisconnect', (client) => {
    const identity = identities.get(client);
    if (identity && identity !== 'internal') {
      clientsBySerial.get(identity.serial)?.delete(client);
      counters.connected -= 1;
    }
  });
  // Registered (past authentication and any takeover): aedes tells the end of exactly these.
  broker.on('client', (client) => {
    const identity = identities.get(client);
    if (identity && identity !== 'internal') counters.connected += 1;
  });

  broker.on('connectionError', (client, error) => {
    if (error.message !== CONNECT_TIMEOUT_ERROR) return;
    counters.closed_connect_timeout += 1;
    const address = addressOf(client);
    warn(`connect_timeout ${address}`, {}, 'mqtt connection closed: no CONNECT in time');
  });

  const limit = connectionLimit('mqtt', maxConnectionsPerAddress, log);
  const admit = (socket: Socket) => {
    if (!limit.admit(socket)) return void (counters.refused_connection_limit += 1);
    const address = addressKey(socket.remoteAddress);
    broker.handle(socket);
    // After Aedes' own 'readable' listener: the guard sees each chunk as Aedes reads it.
    guardPacketSize(socket, MAX_PACKET_BYTES, (announced) => {
      counters.closed_packet_too_large += 1;
      warn(`packet_too_large ${address}`, { announced }, 'mqtt connection closed: packet too large');
    });
    socket.setTimeout(idleTimeoutMs, () => {
      counters.closed_idle += 1;
      warn(`idle ${address}`, {}, 'mqtt connection closed: silent too long');
      socket.destroy();
    });
  };
  const server: Server = createServer(admit);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(
          new PortInUseError(
            `MQTT port ${port} is already in use (another MQTT broker, such as Mosquitto, may be running). ` +
              `Start on another port with MQTT_PORT=${port + 1} npm start, or use that broker with MQTT_URL=mqtt://127.0.0.1:${port}.`,
          ),
        );
      } else reject(error);
    });
    server.listen(port, host, () => resolve());
  });
  log.info({ port }, 'embedded MQTT broker listening');
  const localHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    describe: `embedded MQTT broker on mqtt://${host}:${port}`,
    internalUrl: `mqtt://${localHost.includes(':') ? `[${localHost}]` : localHost}:${port}`,
    internalCredentials: { username: INTERNAL_USERNAME, password: internalPassword },
    counters,
    disconnect: (serial) => {
      for (const client of clientsBySerial.get(serial) ?? []) client.close();
      clientsBySerial.delete(serial);
    },
    close: async () => {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The address a client's connection counts against (net/connection-limit.ts). */
const addressOf = (client: Client) =>
  addressKey((client.conn as { remoteAddress?: string } | undefined)?.remoteAddress);

/** Aedes' error when a connection's CONNECT did not arrive within `connectTimeout`. */
const CONNECT_TIMEOUT_ERROR = 'connect did not arrive in time';

/**
 * A refusal or a closing is logged once a minute per cause and address: a client retrying in a loop
 * (or a flood) does not flood the log; the counters count every one.
 */
function warnOncePerMinute(log: Logger) {
  const last = new Map<string, number>();
  return (key: string, fields: object, message: string) => {
    const now = Date.now();
    if ((last.get(key) ?? -Infinity) > now - 60_000) return;
    if (last.size >= 10_000) last.clear();
    last.set(key, now);
    log.warn({ ...fields, address: key.slice(key.indexOf(' ') + 1) }, message);
  };
}
