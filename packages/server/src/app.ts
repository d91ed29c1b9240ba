import fastifyMultipart from '@fastify/multipart';
import Fastify, { LogController, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ALERT_ESCALATION_INTERVAL_MS,
  ALERT_PUSH_CHANNEL,
  AlertNotifier,
  alertPlaceOf,
  COMMUNICATION_TIMEOUT_MS,
  conditionsListener,
} from './alerts/index.ts';
import { alertAnswersRoutes } from './alerts/alert-answers.routes.ts';
import { AlertAnswersService } from './alerts/alert-answers.service.ts';
import { notificationsRoutes } from './alerts/notifications.routes.ts';
import { NotificationsService } from './alerts/notifications.service.ts';
import { alertsRoutes } from './alerts/alerts.routes.ts';
import { AlertsService } from './alerts/alerts.service.ts';
import { lockedZoneGuard } from './automation/index.ts';
import { automationRoutes } from './automation/automation.routes.ts';
import { AutomationService } from './automation/automation.service.ts';
import { authRoutes, publicAuthRoutes } from './auth/auth.routes.ts';
import { fleetRoutes } from './fleet/fleet.routes.ts';
import { FleetService } from './fleet/fleet.service.ts';
import { LeakUpkeep, leakSummary } from './leaks/index.ts';
import { leaksRoutes } from './leaks/leaks.routes.ts';
import { LeaksService } from './leaks/leaks.service.ts';
import { billingRoutes } from './billing/billing.routes.ts';
import { consumptionRoutes } from './consumption/consumption.routes.ts';
import { ConsumptionService } from './consumption/consumption.service.ts';
import { PricingPlansService } from './billing/plans.service.ts';
import { ZoneSubscriptionsService } from './billing/subscriptions.service.ts';
import { AuthService } from './auth/auth.service.ts';
import { sessionCacheMetrics } from './auth/index.ts';
import type { Config, TrustProxy } from './config.ts';
import type { Context, RemoveBelow } from './context.ts';
import { buildingsRoutes } from './buildings/buildings.routes.ts';
import { BuildingsService } from './buildings/buildings.service.ts';
import { FloorsService } from './buildings/floors.service.ts';
import { customersRoutes } from './customers/customers.routes.ts';
import { EventsService } from './events/events.service.ts';
import { firmwareDownloadMetrics, firmwareMessageMetrics, verifyDownloadToken } from './firmware/index.ts';
import { firmwareCatalogueRoutes } from './firmware/catalogue.routes.ts';
import { FirmwareCatalogueService } from './firmware/catalogue.service.ts';
import { downloadRateKey, firmwareDownloadRoutes } from './firmware/download.routes.ts';
import { FirmwareDownloadService } from './firmware/download.service.ts';
import { eventsRoutes } from './events/events.routes.ts';
import { CommandsService } from './flowboxes/commands.service.ts';
import { flowboxesRoutes } from './flowboxes/flowboxes.routes.ts';
import { RolloutRunner } from './firmware/index.ts';
import { rolloutsRoutes } from './firmware/rollouts.routes.ts';
import { RolloutsService } from './firmware/rollouts.service.ts';
import { firmwareUpdatesRoutes } from './firmware/updates.routes.ts';
import { FirmwareUpdatesService } from './firmware/updates.service.ts';
import { FlowboxesService } from './flowboxes/flowboxes.service.ts';
import { TelemetryHooks } from './telemetry/index.ts';
import { heardCacheMetrics, LiveHub, liveMetrics } from './live/index.ts';
import { liveStreamRoutes, liveTicketRoutes } from './live/live.routes.ts';
import { DeviceLink, deviceMetrics, type DeviceMetrics } from './devices/index.ts';
import { JobRunner, jobMetrics } from './jobs/index.ts';
import { metricsRoutes } from './mqtt/metrics.routes.ts';
import { CustomersService } from './customers/customers.service.ts';
import type { Db } from './db/client.ts';
import { poolMetrics } from './db/pool-metrics.ts';
import { webCsp } from './http/csp.ts';
import { installErrorHandler, zodValidatorCompiler } from './http/error-handler.ts';
import { InstanceMetrics, metricsRoute } from './http/metrics.ts';
import { apiDocs } from './http/openapi.ts';
import { limitRequests, retryAfterOnTooMany } from './http/rate-limit.ts';
import { echoRequestId, requestIdOf } from './http/request-id.ts';
import { logRequests } from './http/request-log.ts';
import { traceRequests } from './http/request-spans.ts';
import { securityHeaders } from './http/security-headers.ts';
import { serveWebApp } from './http/static-files.ts';
import { imagesRoutes } from './images/images.routes.ts';
import { ImagesService } from './images/images.service.ts';
import { bearerToken, type App } from './http/types.ts';
import { Mailer } from './mail/mailer.ts';
import { mailMetrics } from './mail/metrics.ts';
import { outboxRoutes } from './mail/outbox.routes.ts';
import { plumbersRoutes } from './plumbers/plumbers.routes.ts';
import { pushMetrics } from './push/index.ts';
import { PushDelivery } from './push/push-delivery.service.ts';
import { pushRoutes } from './push/push.routes.ts';
import { PushService } from './push/push.service.ts';
import { WEBHOOKS_CHANNEL, webhookMetrics } from './webhooks/index.ts';
import { WebhookDelivery } from './webhooks/webhook-delivery.service.ts';
import { webhooksRoutes } from './webhooks/webhooks.routes.ts';
import { WebhooksService } from './webhooks/webhooks.service.ts';
import { DEFAULT_MAP_TILE_URL, PlumbersService } from './plumbers/plumbers.service.ts';
import { sitesRoutes } from './sites/sites.routes.ts';
import { SitesService } from './sites/sites.service.ts';
import { managersRoutes } from './users/managers.routes.ts';
import { peopleRoutes } from './users/people.routes.ts';
import { PeopleService } from './users/people.service.ts';
import { endUsersRoutes } from './endusers/endusers.routes.ts';
import { zoneWaterRoutes } from './endusers/zone-water.routes.ts';
import { ZoneWaterService } from './endusers/zone-water.service.ts';
import { EndUsersService } from './endusers/endusers.service.ts';
import { healthRoutes } from './health/health.routes.ts';
import { Readiness } from './health/readiness.ts';
import { connectionLimit, limitConnections } from './net/connection-limit.ts';
import { ScheduleRunner } from './schedules/index.ts';
import { schedulesRoutes } from './schedules/schedules.routes.ts';
import { SchedulesService } from './schedules/schedules.service.ts';
import { ManagersService } from './users/managers.service.ts';
import { WaterPointsService } from './zones/water-points.service.ts';
import { zonesRoutes } from './zones/zones.routes.ts';
import { ZonesService } from './zones/zones.service.ts';
import { zoneOverviewCache } from './zones/index.ts';
import { waterBalanceRoutes } from './water-balance/water-balance.routes.ts';
import { reportsRoutes } from './reports/reports.routes.ts';
import { ReportsService } from './reports/reports.service.ts';
import { WaterBalanceService } from './water-balance/water-balance.service.ts';
import type { Tracing } from './tracing/tracing.ts';

export type AppOptions = {
  config: Pick<
    Config,
    | 'publicUrl'
    | 'accessTokenTtl'
    | 'refreshTokenTtl'
    | 'jwtSecret'
    | 'vapid'
    | 'smtpUrl'
    | 'smtpFrom'
    | 'logLevel'
    | 'webDist'
  > &
    /**
     * No cap when not given (tests, benchmarks); the product's comes from HTTP_MAX_CONNECTIONS_PER_ADDRESS.
     * No trusted proxy and no metrics token when not given.
     */
    Partial<
      Pick<
        Config,
        'httpMaxConnectionsPerAddress' | 'trustProxy' | 'metricsToken' | 'mapTileUrl' | 'mapTileAttribution'
      >
    > & {
      /**
       * Tests only, never read from the environment (docs/push.md "Tests"): a push service on
       * loopback stands in for the vendors', so endpoints may be plain http, and only loopback ones
       * are ever sent to.
       */
      pushTestEndpoints?: boolean;
      /**
       * Tests only, never read from the environment (docs/webhooks.md "Tests"): a receiver on
       * loopback stands in for the customer's, so addresses may be plain http, and only loopback
       * ones are ever sent to.
       */
      webhookTestEndpoints?: boolean;
    };
  db: Db;
  now?: () => Date;
  /** How long before an unsilenced critical alert is emailed again (default 30 minutes). */
  alertEscalationIntervalMs?: number;
  /** How long a paired flowbox may stay silent before flowbox_communication (default 10 minutes). */
  communicationTimeoutMs?: number;
  /** Rest between two passes of the leak analytics under steady ingest (default 5 s). */
  leakUpkeepPauseMs?: number;
  /** Tests shorten the HTTP timeouts. */
  httpTimeouts?: Partial<typeof HTTP_TIMEOUTS>;
  /** Requests a minute per client on every route (default 1,200; RATE_LIMIT_PER_MINUTE); benchmarks lift it. */
  rateLimitPerMinute?: number;
  logger?: FastifyServerOptions['logger'];
  /** What this instance's parts report (database, broker), for `/v1/health`; server.ts shares it. */
  readiness?: Readiness;
  /** With OTEL_EXPORTER_OTLP_ENDPOINT: a span per request (docs/operations.md "Tracing"). */
  tracing?: Tracing;
};

export type Services = {
  auth: AuthService;
  managers: ManagersService;
  endUsers: EndUsersService;
  customers: CustomersService;
  sites: SitesService;
  plumbers: PlumbersService;
  events: EventsService;
  buildings: BuildingsService;
  floors: FloorsService;
  zones: ZonesService;
  waterPoints: WaterPointsService;
  images: ImagesService;
  firmwareCatalogue: FirmwareCatalogueService;
  /** Devices' downloads of their firmware images (no user token: HTTP Basic). */
  firmwareDownloads: FirmwareDownloadService;
  flowboxes: FlowboxesService;
  commands: CommandsService;
  /** Firmware updates of one flowbox (docs/firmware.md); server.ts runs their timeout job. */
  firmwareUpdates: FirmwareUpdatesService;
  rollouts: RolloutsService;
  /** The rollout job; server.ts runs its passes. */
  rolloutRunner: RolloutRunner;
  /** The way to the devices; device messaging (server.ts) attaches the broker to it. */
  deviceLink: DeviceLink;
  live: LiveHub;
  /** What device messaging shares with the services: database, clock, settings. */
  context: Context;
  pricingPlans: PricingPlansService;
  subscriptions: ZoneSubscriptionsService;
  consumption: ConsumptionService;
  /** Buildings' water balance (main supply against zones); server.ts runs its nights' job. */
  waterBalance: WaterBalanceService;
  schedules: SchedulesService;
  /** The scheduled-closing job; server.ts runs its passes. */
  scheduleRunner: ScheduleRunner;
  mailer: Mailer;
  /** Listeners run on every committed telemetry batch (the rules engine; docs/telemetry.md). */
  telemetry: TelemetryHooks;
  /** Automatic closing: detection on each telemetry batch, safety closes, the zone lock. */
  automation: AutomationService;
  /** Alerts (docs/alerts.md): raised by the rules, handled by users; the email job sends them. */
  alerts: AlertsService;
  fleet: FleetService;
  /** Leak analytics (docs/automation.md "Leak analytics"): kept after each batch, read per zone and building. */
  leaks: LeaksService;
  leakUpkeep: LeakUpkeep;
  alertNotifier: AlertNotifier;
  /** The caller's browsers for Web Push (docs/push.md). */
  push: PushService;
  /** The Web Push queue; server.ts runs its retries' job. */
  pushDelivery: PushDelivery;
  /** Scheduled reports (docs/reports.md); server.ts runs their job. */
  reports: ReportsService;
  /** A customer's webhooks (docs/webhooks.md). */
  webhooks: WebhooksService;
  /** The webhook queue; server.ts runs its retries' job. */
  webhookDelivery: WebhookDelivery;
  /** Where the instance's periodic jobs run (jobs/): server.ts starts them (jobs/registry.ts). */
  jobs: JobRunner;
  /** This instance's Prometheus registry (`/metrics`; server.ts also serves it on METRICS_PORT). */
  metrics: InstanceMetrics;
  /** What device messaging records into the metrics as it happens (batch durations). */
  deviceMetrics: DeviceMetrics;
};

/** Builds the HTTP app: `/v1` API, its OpenAPI docs at `/v1/docs`, and the web app. */
export async function buildApp(options: AppOptions): Promise<{ app: App; services: Services }> {
  const timeouts = { ...HTTP_TIMEOUTS, ...options.httpTimeouts };
  const app = Fastify({
    logger: options.logger ?? { level: options.config.logLevel },
    bodyLimit: 1_048_576,
    // docs/operations.md "Behind a proxy": request.ip is the client's only through proxies named here.
    trustProxy: fastifyTrustProxy(options.config.trustProxy ?? false),
    // A connection silent this long is closed, and a request must arrive whole within its time
    // (docs/reliability.md "Connection floods and timeouts"); live streams write every 25 s.
    connectionTimeout: timeouts.idleMs,
    requestTimeout: timeouts.requestMs,
    // Node checks the headers and request timeouts this often (30 s by default).
    http: { connectionsCheckingInterval: Math.min(5000, timeouts.headersMs) },
    // Fastify's own two lines per request carry the raw URL (a query can hold a ticket or a token):
    // logRequests below writes one line of chosen fields instead.
    logController: new LogController({ disableRequestLogging: true }),
    // A firmware download's token is one path parameter of about 170 characters (100 by default).
    routerOptions: { maxParamLength: 400 },
    // docs/operations.md "Request ids": the client's or proxy's X-Request-Id when safe, else a UUID.
    genReqId: requestIdOf,
  }).withTypeProvider<ZodTypeProvider>();
  // Headers must arrive within this: a client trickling a request line holds no socket for long.
  app.server.headersTimeout = timeouts.headersMs;
  limitConnections(
    app.server,
    connectionLimit('http', options.config.httpMaxConnectionsPerAddress ?? Infinity, app.log),
  );
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  // First of the root hooks, so the rate limit's and authentication's queries are the request's.
  if (options.tracing) traceRequests(app, options.tracing);
  echoRequestId(app);
  const metrics = new InstanceMetrics();
  metrics.timeRequests(app);
  logRequests(app);
  securityHeaders(app, options.config.publicUrl);
  retryAfterOnTooMany(app);

  const mailer = new Mailer(options.db, {
    smtpUrl: options.config.smtpUrl,
    from: options.config.smtpFrom,
    log: app.log,
    now: options.now,
  });
  const ctx: Context = {
    db: options.db,
    mailer,
    now: options.now ?? (() => new Date()),
    config: options.config,
  };
  const live = new LiveHub(options.db, app.log);
  // The sessions' cache hears the changes to users on the live updates' connection (before start).
  const auth = new AuthService(ctx, app.log, live);
  // So do the zone overviews' (zones/overview-cache.ts).
  const zoneOverviews = { cache: zoneOverviewCache(live), notifications: live };
  // Emails decided by an anonymous call go out after its answer (auth.service.ts); let them finish.
  app.addHook('onClose', async () => auth.settled());
  const deviceLink = new DeviceLink();
  const readiness = options.readiness ?? new Readiness();
  const commands = new CommandsService(ctx, deviceLink);
  const firmwareCatalogue = new FirmwareCatalogueService(ctx);
  const firmwareUpdates = new FirmwareUpdatesService(ctx, commands, firmwareCatalogue);
  commands.firmware.register(firmwareUpdates.listener());
  const rolloutRunner = new RolloutRunner(ctx, firmwareUpdates, commands);
  const alertOptions = {
    escalationIntervalMs: options.alertEscalationIntervalMs ?? ALERT_ESCALATION_INTERVAL_MS,
    communicationTimeoutMs: options.communicationTimeoutMs ?? COMMUNICATION_TIMEOUT_MS,
  };
  const alerts = new AlertsService(ctx, alertOptions);
  const pushDelivery = new PushDelivery(options.db, {
    vapid: options.config.vapid,
    log: app.log,
    now: options.now,
    testEndpoints: options.config.pushTestEndpoints ?? false,
  });
  const alertNotifier = new AlertNotifier(ctx, alertOptions, pushDelivery, app.log);
  // docs/push.md: an alert to push is heard once committed, on whichever instance raised it.
  live.listenTo(ALERT_PUSH_CHANNEL, () => alertNotifier.kickPushes());
  const webhookTestEndpoints = options.config.webhookTestEndpoints ?? false;
  const webhookDelivery = new WebhookDelivery(options.db, {
    log: app.log,
    mailer,
    publicUrl: options.config.publicUrl,
    now: options.now,
    testEndpoints: webhookTestEndpoints,
  });
  // docs/webhooks.md: deliveries queued by the activity log's trigger are heard once committed.
  live.listenTo(WEBHOOKS_CHANNEL, () => webhookDelivery.kick());
  await live.start();
  app.addHook('onClose', async () => live.close());
  // An instance that does not hear the database's notifications (its sessions' invalidations, the
  // live messages) is not ready (docs/reliability.md "Database failures").
  live.onHearingChange((hearing) =>
    readiness.set('notifications', hearing ? undefined : 'listening connection disconnected'),
  );
  const consumption = new ConsumptionService(
    ctx,
    async (actor) => (await alerts.count(actor)).open,
    (zoneIds) => leakSummary(ctx.db, zoneIds),
  );
  const zonePrices = (zoneIds: readonly string[]) => consumption.pricePerM3Now(zoneIds);
  const flowboxes = new FlowboxesService(ctx, deviceLink);
  const images = new ImagesService(ctx);
  // A place's deletion: its flowboxes retired, then (zones have none) its images deleted.
  const removeBelow: RemoveBelow = async (tx, node, by, at) => {
    const serials = await flowboxes.retireUnder(tx, node, by, at);
    if (!('zoneId' in node)) await images.deleteUnder(tx, node);
    return serials;
  };
  const services: Services = {
    auth,
    managers: new ManagersService(ctx, auth),
    endUsers: new EndUsersService(ctx),
    customers: new CustomersService(ctx, deviceLink, removeBelow),
    sites: new SitesService(ctx, deviceLink, removeBelow),
    plumbers: new PlumbersService(ctx, {
      tileUrl: options.config.mapTileUrl,
      attribution: options.config.mapTileAttribution,
    }),
    events: new EventsService(ctx),
    buildings: new BuildingsService(ctx, deviceLink, removeBelow),
    floors: new FloorsService(ctx),
    zones: new ZonesService(ctx, deviceLink, removeBelow, zoneOverviews),
    waterPoints: new WaterPointsService(ctx),
    images,
    firmwareCatalogue,
    firmwareDownloads: new FirmwareDownloadService(ctx),
    flowboxes,
    commands,
    firmwareUpdates,
    rollouts: new RolloutsService(ctx, rolloutRunner),
    rolloutRunner,
    deviceLink,
    live,
    context: ctx,
    pricingPlans: new PricingPlansService(ctx),
    subscriptions: new ZoneSubscriptionsService(ctx),
    consumption,
    waterBalance: new WaterBalanceService(ctx, {
      raise: (tx, alert) => alerts.raise(tx, alert),
      clear: (tx, alert) => alerts.clear(tx, alert),
    }),
    schedules: new SchedulesService(ctx),
    scheduleRunner: new ScheduleRunner(ctx, commands),
    mailer,
    telemetry: new TelemetryHooks(),
    automation: new AutomationService(ctx, commands, async (tx, alert) => {
      await alerts.raise(tx, { ...alert, zoneId: alert.scope.zoneId });
    }),
    alerts,
    fleet: new FleetService(ctx),
    leaks: new LeaksService(ctx, zonePrices),
    leakUpkeep: new LeakUpkeep(ctx, zonePrices, { pauseMs: options.leakUpkeepPauseMs ?? 5000, log: app.log }),
    alertNotifier,
    push: new PushService(options.db, pushDelivery, { alertOf: alertPlaceOf, now: ctx.now }),
    pushDelivery,
    webhooks: new WebhooksService(ctx, webhookDelivery, { testEndpoints: webhookTestEndpoints }),
    webhookDelivery,
    reports: new ReportsService(ctx, consumption),
    jobs: new JobRunner({ log: app.log }),
    metrics,
    deviceMetrics: deviceMetrics(metrics, deviceLink),
  };
  poolMetrics(metrics, options.db);
  jobMetrics(metrics, services.jobs);
  mailMetrics(metrics, mailer);
  pushMetrics(metrics, pushDelivery);
  webhookMetrics(metrics, webhookDelivery);
  liveMetrics(metrics, live);
  firmwareDownloadMetrics(metrics, services.firmwareDownloads);
  firmwareMessageMetrics(metrics, services.firmwareUpdates);
  sessionCacheMetrics(metrics, auth.cache);
  heardCacheMetrics(
    metrics,
    'zone_overview_lookups_total',
    "Zone overviews by where they came from: this instance's cache, or the database",
    zoneOverviews.cache,
  );
  services.telemetry.register(services.automation.listener());
  services.telemetry.register(conditionsListener());
  services.telemetry.register(services.leakUpkeep.listener());
  app.addHook('onClose', async () => services.leakUpkeep.close());
  app.addHook('onClose', async () => mailer.close());
  app.addHook('onClose', async () => {
    await alertNotifier.idle();
    await pushDelivery.close();
    await webhookDelivery.close();
  });

  await limitRequests(app, options.rateLimitPerMinute ?? 1200, (request) =>
    downloadRateKey(
      request,
      (token) => verifyDownloadToken(token, options.config.jwtSecret, ctx.now()),
      (serial, secret) => services.firmwareDownloads.isDevice(serial, secret),
    ),
  );
  metricsRoute(app, metrics, { token: options.config.metricsToken });
  await apiDocs(app);
  // Image uploads only; each upload route sets its own size limit (images.routes.ts).
  await app.register(fastifyMultipart, { limits: { files: 1, parts: 10 } });

  await app.register(
    async (api) => {
      const v1 = api.withTypeProvider<ZodTypeProvider>();
      publicAuthRoutes(v1, auth);
      const liveOptions = {
        hub: live,
        auth,
        maxStreamS: options.config.accessTokenTtl,
      };
      liveStreamRoutes(v1, liveOptions);
      firmwareDownloadRoutes(v1, services.firmwareDownloads);
      healthRoutes(v1, readiness, options.db);
      await v1.register(async (secured) => {
        const protectedApi = secured.withTypeProvider<ZodTypeProvider>();
        protectedApi.addHook('onRequest', async (request) => {
          request.heardMark = live.mark();
          request.actor = await auth.authenticate(bearerToken(request));
        });
        // spec §4: a zone locked by automatic closing refuses every change but the exit.
        protectedApi.addHook('preHandler', lockedZoneGuard(options.db));
        authRoutes(protectedApi, auth, services.managers);
        managersRoutes(protectedApi, services.managers);
        peopleRoutes(protectedApi, new PeopleService(ctx));
        endUsersRoutes(protectedApi, services.endUsers);
        zoneWaterRoutes(protectedApi, new ZoneWaterService(ctx));
        customersRoutes(protectedApi, services.customers);
        sitesRoutes(protectedApi, services.sites);
        plumbersRoutes(protectedApi, services.plumbers);
        buildingsRoutes(protectedApi, services.buildings, services.floors);
        zonesRoutes(protectedApi, services.zones, services.waterPoints);
        imagesRoutes(protectedApi, services.images);
        firmwareCatalogueRoutes(protectedApi, services.firmwareCatalogue);
        flowboxesRoutes(protectedApi, services.flowboxes, services.commands);
        firmwareUpdatesRoutes(protectedApi, services.firmwareUpdates);
        rolloutsRoutes(protectedApi, services.rollouts);
        liveTicketRoutes(protectedApi, liveOptions);
        metricsRoutes(protectedApi, deviceLink, services.jobs);
        billingRoutes(protectedApi, services.pricingPlans, services.subscriptions);
        consumptionRoutes(protectedApi, services.consumption);
        waterBalanceRoutes(protectedApi, services.waterBalance);
        schedulesRoutes(protectedApi, services.schedules);
        automationRoutes(protectedApi, services.automation);
        eventsRoutes(protectedApi, services.events);
        alertsRoutes(protectedApi, services.alerts);
        alertAnswersRoutes(protectedApi, new AlertAnswersService(ctx));
        notificationsRoutes(protectedApi, new NotificationsService(ctx));
        fleetRoutes(protectedApi, services.fleet);
        leaksRoutes(protectedApi, services.leaks);
        outboxRoutes(protectedApi, mailer);
        pushRoutes(protectedApi, services.push);
        webhooksRoutes(protectedApi, services.webhooks);
        reportsRoutes(protectedApi, services.reports);
      });
    },
    { prefix: '/v1' },
  );

  await serveWebApp(app, options.config.webDist, webCsp(options.config.mapTileUrl ?? DEFAULT_MAP_TILE_URL));
  return { app, services };
}

/** A hop count as Fastify applies it (its typings take only the other forms): the nearest n hops. */
function fastifyTrustProxy(
  trust: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/** HTTP timeouts (docs/reliability.md "Connection floods and timeouts"). */
export const HTTP_TIMEOUTS = { headersMs: 10_000, requestMs: 60_000, idleMs: 120_000 };
