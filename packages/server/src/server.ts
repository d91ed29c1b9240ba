import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { openDatabase } from './db/client.ts';
import { DatabaseWatch } from './health/database-watch.ts';
import { Readiness } from './health/readiness.ts';
import { listenForScrapes } from './http/metrics.ts';
import { startDemoFleet, type DemoFleet } from './demo/index.ts';
import { startDeviceMessaging, type DeviceMessaging } from './mqtt/index.ts';
import { importUploadedImages } from './images/index.ts';
import { instanceJobs, startJobs } from './jobs/registry.ts';
import { ensureAdmin, seedDemo } from './seed/index.ts';
import { startTracing } from './tracing/tracing.ts';

export class PortBusyError extends Error {}

export type RunningServer = {
  url: string;
  messaging: DeviceMessaging;
  /** The simulated flowboxes of the demo (DEMO_FLEET); none when it is off. */
  demoFleet: Pick<DemoFleet, 'running'>;
  close: () => Promise<void>;
};

/** Starts the whole product: database (migrated), device messaging, HTTP server. */
export async function startServer(config: Config): Promise<RunningServer> {
  // What the instance's parts report, for /v1/health (docs/reliability.md "Database failures").
  const readiness = new Readiness();
  // The watch needs the database open, and the app's logger: the handler reads it when called.
  const watch: { current?: DatabaseWatch } = {};
  // docs/operations.md "Tracing": undefined, and no SDK loaded, without OTEL_EXPORTER_OTLP_ENDPOINT.
  const tracing = await startTracing(config.tracing);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    onConnectionError: (error) => watch.current?.lost(error),
    tracing,
  });
  const { app, services } = await buildApp({
    config,
    db: database.db,
    readiness,
    rateLimitPerMinute: config.rateLimitPerMinute,
    tracing,
  });
  watch.current = new DatabaseWatch(database.db, readiness, app.log);
  watch.current.start();
  // Last of all, the spans still buffered are exported: the closing's own included.
  const closers: (() => Promise<void>)[] = [
    async () => watch.current?.close(),
    () => database.close(),
    async () => tracing?.shutdown(),
  ];
  try {
    if (config.admin) await ensureAdmin(database.db, config.admin, app.log);
    if (config.demo) await seedDemo(database.db, app.log);
    await importUploadedImages(database.db, config.uploadsDir, app.log);
    const messaging = await startDeviceMessaging({
      mqttUrl: config.mqttUrl,
      port: config.mqttPort,
      host: config.host,
      ctx: services.context,
      link: services.deviceLink,
      flowboxes: services.flowboxes,
      commands: services.commands,
      telemetry: services.telemetry,
      clientId: config.mqttClientId,
      dynsec: config.mqttDynsec,
      log: app.log,
      readiness,
      writer: {
        onBatchWritten: services.deviceMetrics.batchWritten,
        tracing,
        // docs/operations.md "When the disk fills": readiness names the storage until it has room.
        onStorage: (problem) => readiness.set('storage', problem),
      },
      brokerLimits: { maxConnectionsPerAddress: config.mqttMaxConnectionsPerAddress },
      ingestConnections: config.mqttIngestConnections,
    });
    closers.unshift(() => messaging.close());
    closers.unshift(() => app.close());
    // Every job of the instance (jobs/registry.ts). They stop before the app (the emails need its
    // mailer) and before device messaging, which the commands they send go through.
    const stopJobs = startJobs(
      services.jobs,
      instanceJobs({
        services,
        db: database.db,
        smtp: Boolean(config.smtpUrl),
        messaging,
        rawRetentionDays: config.telemetryRawRetentionDays,
      }),
    );
    closers.unshift(stopJobs);
    await app.listen({ port: config.port, host: config.host }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        throw new PortBusyError(
          `Port ${config.port} is already in use. Start on another port with PORT=${config.port + 1} npm start.`,
        );
      }
      throw error;
    });
    const metricsPort = config.metricsPort;
    if (metricsPort !== undefined) {
      const scrapes = await listenForScrapes(services.metrics, metricsPort, config.metricsHost).catch(
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'EADDRINUSE')
            throw new PortBusyError(
              `METRICS_PORT ${metricsPort} is already in use. Start on another port with METRICS_PORT=${metricsPort + 1}.`,
            );
          throw error;
        },
      );
      closers.unshift(() => scrapes.close());
    }
    const url = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`;
    const demoFleet = config.demoFleet
      ? await startDemoFleet({
          db: database.db,
          flowboxes: services.flowboxes,
          brokerUrl:
            config.mqttUrl ??
            `mqtt://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${config.mqttPort}`,
          dataDir: config.dataDir,
          log: app.log,
          history: config.demoHistory,
          leaks: config.demoLeaks && { firstAfterMs: config.demoLeaks.firstAfterS * 1000 },
          now: services.context.now,
        })
      : { running: 0, stop: async () => undefined };
    // The devices say goodbye before the broker and the database they talk to go away.
    closers.unshift(() => demoFleet.stop());
    return {
      url,
      messaging,
      demoFleet: { running: demoFleet.running },
      close: async () => {
        for (const close of closers) await close();
      },
    };
  } catch (error) {
    for (const close of closers) await close().catch(() => undefined);
    throw error;
  }
}
