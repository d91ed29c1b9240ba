import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import { Aedes, type Client } from 'aedes';
import { identityFromUsername, mayPublish, maySubscribe, type DeviceIdentity } from '@flowbox/shared';

export type Logger = {
  info: (obj: object, msg: string) => void;
  warn: (obj: object, msg: string) => void;
  error: (obj: object, msg: string) => void;
};

export class PortInUseError extends Error {}

/** How a device proves who it is: the secret checks live in the flowboxes domain. */
export type DeviceAuthenticator = (
  identity: DeviceIdentity,
  secret: string,
) => Promise<'ok' | 'unknown' | 'wrong'>;

/** Refusals of the embedded broker, by cause (issue #4: refused and counted). */
export type BrokerCounters = {
  connections_accepted: number;
  refused_unknown_identity: number;
  refused_unknown_serial: number;
  refused_wrong_secret: number;
  /** A device whose client id is not its user name (a takeover of another device's session, or empty). */
  refused_client_id: number;
  refused_publish: number;
  refused_subscribe: number;
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
const TELEMETRY_SUFFIX = '/telemetry';

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
   * Takes a device's telemetry straight from the broker (issue #6): the device's PUBACK is sent only
   * once this resolves (the reading committed); if it rejects, the connection is closed unacknowledged
   * and the device sends the message again when it reconnects. Without it, telemetry is routed to
   * subscribers like any message.
   */
  takeTelemetry?: (topic: string, payload: Buffer) => Promise<void>,
): Promise<EmbeddedBroker> {
  const internalPassword = randomBytes(32).toString('base64url');
  const identities = new WeakMap<Client, DeviceIdentity | 'internal'>();
  const clientsBySerial = new Map<string, Set<Client>>();
  const counters: BrokerCounters = {
    connections_accepted: 0,
    refused_unknown_identity: 0,
    refused_unknown_serial: 0,
    refused_wrong_secret: 0,
    refused_client_id: 0,
    refused_publish: 0,
    refused_subscribe: 0,
  };
  const refuse = (
    cause: 'unknown_identity' | 'unknown_serial' | 'wrong_secret' | 'client_id',
    client: Client,
    username?: string,
  ) => {
    counters[`refused_${cause}`] += 1;
    log.warn({ clientId: client.id, username, cause }, 'mqtt connection refused');
  };

  const broker = await Aedes.createBroker({
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
      // A client id names the session: another device's would take over its connection and, with
      // a persistent session, its queued commands. Aedes names an empty id `aedes_{uuid}`, no user
      // name, so an empty one is refused too (docs/protocol.md "Credentials and the ACL").
      if (client.id !== username) {
        refuse('client_id', client, username);
        return done(null, false);
      }
      authenticateDevice(identity, secret).then(
        (verdict) => {
          if (verdict !== 'ok') {
            refuse(verdict === 'unknown' ? 'unknown_serial' : 'wrong_secret', client, username);
            return done(null, false);
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
        if (takeTelemetry && identity.role === 'device' && packet.topic.endsWith(TELEMETRY_SUFFIX))
          return void takeTelemetry(packet.topic, packet.payload as Buffer).then(
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
  // Telemetry handed to ingest is stored and acknowledged: nobody subscribes to it here (the ACL lets
  // no device, and the server's own client does not), so routing it through Aedes (retained store,
  // offline queues, the emitter) would be work for nothing on the busiest path.
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
    if (identity && identity !== 'internal') clientsBySerial.get(identity.serial)?.delete(client);
  });

  const server: Server = createServer(broker.handle);
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
