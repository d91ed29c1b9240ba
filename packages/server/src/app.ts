import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import {
  ROLES,
  ApiErrorSchema,
  ListQuerySchema,
  listOf,
  OutboxEmailSchema,
  translate,
} from '@flowbox/shared';
import { z } from 'zod';
import Fastify, {
  LogController,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireRole } from './access/access.ts';
import {
  ALERT_ESCALATION_INTERVAL_MS,
  AlertNotifier,
  COMMUNICATION_TIMEOUT_MS,
  conditionsListener,
} from './alerts/index.ts';
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
import { statusOf } from './errors.ts';
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
import { DOCS_CSP, webCsp } from './http/csp.ts';
import { installErrorHandler, zodValidatorCompiler } from './http/error-handler.ts';
import { InstanceMetrics, METRICS_PATH, metricsRoute, routeOf } from './http/metrics.ts';
import { documentTransform } from './http/openapi.ts';
import { echoRequestId, requestIdOf } from './http/request-id.ts';
import { traceRequests } from './http/request-spans.ts';
import { imagesRoutes } from './images/images.routes.ts';
import { ImagesService } from './images/images.service.ts';
import { requestLanguage } from './http/language.ts';
import { actorOf, bearerToken, errorResponses, type App } from './http/types.ts';
import { Mailer } from './mail/mailer.ts';
import { mailMetrics } from './mail/metrics.ts';
import { plumbersRoutes } from './plumbers/plumbers.routes.ts';
import { DEFAULT_MAP_TILE_URL, PlumbersService } from './plumbers/plumbers.service.ts';
import { sitesRoutes } from './sites/sites.routes.ts';
import { SitesService } from './sites/sites.service.ts';
import { managersRoutes } from './users/managers.routes.ts';
import { peopleRoutes } from './users/people.routes.ts';
import { PeopleService } from './users/people.service.ts';
import { endUsersRoutes } from './endusers/endusers.routes.ts';
import { EndUsersService } from './endusers/endusers.service.ts';
import { answersWithin } from './health/database-watch.ts';
import { migrationsApplied } from './db/migrations.ts';
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
import { WaterBalanceService } from './water-balance/water-balance.service.ts';
import type { Tracing } from './tracing/tracing.ts';

export type AppOptions = {
  config: Pick<
    Config,
    | 'publicUrl'
    | 'accessTokenTtl'
    | 'refreshTokenTtl'
    | 'jwtSecret'
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
    >;
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
  const servedOverHttps = options.config.publicUrl.startsWith('https:');
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    reply.header('x-frame-options', 'DENY');
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    // HSTS only means something over TLS; sent over plain HTTP it would be ignored or, behind a
    // TLS proxy, pin a name the operator may still serve in clear (docs/reliability.md).
    if (servedOverHttps || request.protocol === 'https')
      reply.header('strict-transport-security', 'max-age=31536000');
    // Every 429 says when to come back, whichever limit answered it (RFC 9110 §10.2.3).
    if (reply.statusCode === 429 && !reply.hasHeader('retry-after')) reply.header('retry-after', '60');
  });

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
    alertNotifier: new AlertNotifier(ctx, alertOptions),
    jobs: new JobRunner({ log: app.log }),
    metrics,
    deviceMetrics: deviceMetrics(metrics, deviceLink),
  };
  poolMetrics(metrics, options.db);
  jobMetrics(metrics, services.jobs);
  mailMetrics(metrics, mailer);
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

  await app.register(fastifyRateLimit, {
    global: false,
    max: options.rateLimitPerMinute ?? 1200,
    timeWindow: '1 minute',
    keyGenerator: async (request) =>
      (await downloadRateKey(
        request,
        (token) => verifyDownloadToken(token, options.config.jwtSecret, ctx.now()),
        (serial, secret) => services.firmwareDownloads.isDevice(serial, secret),
      )) ?? rateLimitKey(request),
  });
  // At the root, so on every request and before the routes' own hooks: as the plugin's per-route
  // hook it ran after the protected routes' authentication, so requests with a bad token (and
  // unknown paths) were never counted.
  app.addHook('onRequest', app.rateLimit());
  metricsRoute(app, metrics, { token: options.config.metricsToken });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Flowbox Manager API', version: '1' },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          // A flowbox's serial and secret (its MQTT credentials): firmware downloads.
          device: { type: 'http', scheme: 'basic' },
        },
      },
    },
    transform: documentTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/v1/docs', staticCSP: DOCS_CSP });
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
      // Readiness (docs/reliability.md "Database failures"): 503 naming the parts that are down.
      const readinessSchema = {
        tags: ['health'],
        response: { 200: z.object({ status: z.literal('ok') }), ...errorResponses, 503: ApiErrorSchema },
      };
      const ready = async (request: FastifyRequest, reply: FastifyReply) => {
        const problems = readiness.problems();
        if (problems.database === undefined) {
          const answered = await answersWithin(options.db, 2_000);
          if (answered !== true) problems.database = answered;
          else {
            const migrated = await migrationsApplied(options.db);
            if (migrated !== true) problems.migrations = migrated;
          }
        }
        // Its listening connection is one of the database's: a database down says it all.
        if (problems.database !== undefined) delete problems.notifications;
        const parts = Object.keys(problems);
        if (parts.length === 0) return { status: 'ok' as const };
        const language = requestLanguage(request);
        return reply.code(statusOf('errors.service_unavailable')).send({
          code: 'errors.service_unavailable',
          message: translate('errors.service_unavailable', language, { parts: parts.join(', ') }),
          // Health is public: each part's state in words of our own, never a driver's error text
          // (which can name hosts and addresses); the log has the whole reason.
          details: Object.entries(problems).map(([path, message]) => ({
            path,
            message: publicState(message),
          })),
        });
      };
      v1.get(
        '/health',
        {
          schema: {
            ...readinessSchema,
            summary: 'Readiness: the database and the device broker work (503 naming what does not)',
          },
        },
        ready,
      );
      v1.get(
        '/health/ready',
        { schema: { ...readinessSchema, summary: 'Readiness, for load balancers: the same as /health' } },
        ready,
      );
      v1.get(
        '/health/live',
        {
          schema: {
            tags: ['health'],
            summary: 'Liveness: the process runs and answers (200 even while its database is away)',
            response: { 200: z.object({ status: z.literal('ok') }), ...errorResponses },
          },
        },
        async () => ({ status: 'ok' as const }),
      );
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
        fleetRoutes(protectedApi, services.fleet);
        leaksRoutes(protectedApi, services.leaks);
        protectedApi.get(
          '/outbox',
          {
            schema: {
              tags: ['outbox'],
              summary:
                'Emails the product has sent (embedded set-up: read invitation and reset links here); `search` finds a recipient or subject',
              security: [{ bearer: [] }],
              querystring: ListQuerySchema,
              response: { 200: listOf(OutboxEmailSchema), ...errorResponses },
            },
          },
          async (request) => {
            requireRole(actorOf(request), ROLES.flovea_manager);
            return mailer.outbox(request.query);
          },
        );
      });
    },
    { prefix: '/v1' },
  );

  await serveWebApp(app, options.config.webDist, webCsp(options.config.mapTileUrl ?? DEFAULT_MAP_TILE_URL));
  return { app, services };
}

/** The states a part may show anonymous callers; any other reason reads "unavailable". */
const PUBLIC_STATES = [
  'connecting',
  'disconnected',
  'subscribing',
  'not subscribed',
  'not delivering',
  'not applied',
  'disk full',
];
const publicState = (reason: string) =>
  PUBLIC_STATES.find((state) => reason.includes(state)) ?? 'unavailable';

/**
 * The rate limit's client key: request.ip (the client's, through a trusted proxy), with the
 * plugin's own grouping of an IPv6 address by its /64 (one host holds a whole /64). A client gone
 * before its request was handled has no address any more; the plugin's default key generator
 * then failed with "reading 'toLowerCase'", an error logged for nobody to answer. A firmware
 * download its device's credentials open counts against the device instead (downloadRateKey).
 */
export function rateLimitKey(request: { ip: string | undefined }): string {
  return request.ip ? normalizeIP(request.ip) : 'disconnected-client';
}

/** A hop count as Fastify applies it (its typings take only the other forms): the nearest n hops. */
function fastifyTrustProxy(
  trust: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/** Health checks and scrapes come every few seconds: their lines only when debugging. */
const QUIET_ROUTES = new Set(['/v1/health', '/v1/health/live', '/v1/health/ready', METRICS_PATH]);

/**
 * One line per answered request (docs/operations.md "Logs"): its id (the `reqId` of every line
 * it logs), the user when signed in, the route pattern (never the URL: a query can hold a ticket),
 * the status and the time taken. Never headers, cookies or bodies.
 */
function logRequests(app: App): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = routeOf(request);
    const line = {
      method: request.method,
      route,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      ...(request.actor ? { userId: request.actor.id } : {}),
    };
    if (QUIET_ROUTES.has(route)) request.log.debug(line, 'request');
    else request.log.info(line, 'request');
  });
}

/** HTTP timeouts (docs/reliability.md "Connection floods and timeouts"). */
export const HTTP_TIMEOUTS = { headersMs: 10_000, requestMs: 60_000, idleMs: 120_000 };

/** The web app uses no camera, microphone, location or other powerful browser feature. */
const PERMISSIONS_POLICY = [
  'camera=()',
  'microphone=()',
  'geolocation=()',
  'payment=()',
  'usb=()',
  'serial=()',
  'bluetooth=()',
  'browsing-topics=()',
].join(', ');

/** Vite names every built asset by its content hash, so a browser may keep them for good. */
const HASHED_ASSETS = '/assets/';

/** The built SPA: static files, and index.html for any other non-API path (client-side routes). */
async function serveWebApp(app: App, webDist: string, csp: string): Promise<void> {
  const hasWeb = existsSync(join(webDist, 'index.html'));
  const sendIndex = (reply: FastifyReply) =>
    reply
      .header('cache-control', 'no-cache')
      .header('content-security-policy', csp)
      .type('text/html')
      .sendFile('index.html', { cacheControl: false });
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      index: false,
      // The build writes brotli and gzip copies of its text files (packages/web/precompress.ts):
      // each is sent to a browser that accepts it, with `Vary: Accept-Encoding`.
      preCompressed: true,
      // Files are looked up per request rather than listed at start, so a web build made while the
      // server runs (npm start rebuilds, a deploy) is served at once instead of 404s for new assets.
      wildcard: true,
      setHeaders: (reply, path) => {
        if (path.startsWith(join(webDist, HASHED_ASSETS)))
          reply.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
    // The build's root is a directory, which the static handler refuses to list.
    app.get('/', { schema: { hide: true } }, (_request, reply) => sendIndex(reply));
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url === '/v1' || request.url.startsWith('/v1/');
    // A missing script or style is a 404, never the app's HTML under a script's name.
    const isAsset = request.url.startsWith(HASHED_ASSETS);
    const isRead = request.method === 'GET' || request.method === 'HEAD';
    if (!isApi && !isAsset && hasWeb && isRead) return sendIndex(reply);
    return reply
      .status(statusOf('errors.not_found'))
      .send({ code: 'errors.not_found', message: translate('errors.not_found', requestLanguage(request)) });
  });
}
