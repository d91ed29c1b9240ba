import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { openDatabase } from './db/client.ts';
import { connectExternalBroker, startEmbeddedBroker, type DeviceMessaging } from './mqtt/broker.ts';
import { ensureAdmin, seedDemo } from './seed/seed.ts';

export class PortBusyError extends Error {}

export type RunningServer = { url: string; messaging: DeviceMessaging; close: () => Promise<void> };

/** Starts the whole product: database (migrated), device messaging, HTTP server. */
export async function startServer(config: Config): Promise<RunningServer> {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const { app } = await buildApp({ config, db: database.db });
  const closers: (() => Promise<void>)[] = [() => database.close()];
  try {
    if (config.admin) await ensureAdmin(database.db, config.admin, app.log);
    if (config.demo) await seedDemo(database.db, app.log);
    const messaging = config.mqttUrl
      ? await connectExternalBroker(config.mqttUrl, app.log)
      : await startEmbeddedBroker(config.mqttPort, config.host, app.log);
    closers.unshift(() => messaging.close());
    closers.unshift(() => app.close());
    await app.listen({ port: config.port, host: config.host }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        throw new PortBusyError(
          `Port ${config.port} is already in use. Start on another port with PORT=${config.port + 1} npm start.`,
        );
      }
      throw error;
    });
    const url = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`;
    return {
      url,
      messaging,
      close: async () => {
        for (const close of closers) await close();
      },
    };
  } catch (error) {
    for (const close of closers) await close().catch(() => undefined);
    throw error;
  }
}
