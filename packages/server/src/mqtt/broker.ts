import { createServer, type Server } from 'node:net';
import { Aedes } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';

type Logger = { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void };

export type DeviceMessaging = { describe: string; close: () => Promise<void> };

export class PortInUseError extends Error {}

/**
 * The embedded Aedes broker (DESIGN.md §2). Devices have no credentials until pairing exists
 * (issue #4), so every connection is refused for now: an open broker would accept anyone.
 */
export async function startEmbeddedBroker(port: number, host: string, log: Logger): Promise<DeviceMessaging> {
  const broker = await Aedes.createBroker({
    authenticate: (client, username, _password, done) => {
      log.warn({ clientId: client.id, username }, 'mqtt connection refused: unknown device');
      done(null, false);
    },
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
  return {
    describe: `embedded MQTT broker on mqtt://${host}:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => broker.close(() => resolve()));
    },
  };
}

/** An external broker (MQTT_URL): the server connects as a client. */
export async function connectExternalBroker(url: string, log: Logger): Promise<DeviceMessaging> {
  const client: MqttClient = await mqtt.connectAsync(url, {
    clientId: `flowbox-server-${process.pid}-${Math.random().toString(16).slice(2, 8)}`,
    reconnectPeriod: 2000,
    connectTimeout: 10_000,
  });
  log.info({ url: redact(url) }, 'connected to MQTT broker');
  return { describe: `MQTT broker ${redact(url)}`, close: () => client.endAsync() };
}

function redact(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}
