import { createECDH, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { DEFAULT_POOL_SIZE } from './db/client.ts';
import { tileTemplateProblem } from './http/csp.ts';
import type { TracingConfig } from './tracing/tracing.ts';
import { identityFromUsername, isMessageKey, passwordField, translate } from '@flowbox/shared';

/**
 * Days raw readings are kept by default (TELEMETRY_RAW_RETENTION_DAYS, telemetry/reading-partitions.repo.ts;
 * docs/decisions.md "Raw readings: weekly partitions, kept 90 days"), and the fewest allowed.
 */
export const RAW_RETENTION_DAYS_DEFAULT = 90;
export const RAW_RETENTION_DAYS_MIN = 7;

/** DESIGN.md §8: configuration is read from the environment once, validated, then passed in. */
const portNumber = z.coerce
  .number({ error: 'must be an integer between 1 and 65535' })
  .int('must be an integer between 1 and 65535')
  .min(1, 'must be an integer between 1 and 65535')
  .max(65535, 'must be an integer between 1 and 65535');
const port = (fallback: number) => portNumber.default(fallback);

const count = (min: number, max: number, fallback: number) =>
  z.coerce
    .number({ error: `must be an integer between ${min} and ${max}` })
    .int(`must be an integer between ${min} and ${max}`)
    .min(min, `must be an integer between ${min} and ${max}`)
    .max(max, `must be an integer between ${min} and ${max}`)
    .default(fallback);

const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], 'must be true or false')
  .transform((v) => ['true', '1', 'yes', 'on'].includes(v));

const urlWithScheme = (schemes: string[]) =>
  z.string().refine(
    (v) => {
      try {
        return schemes.includes(new URL(v).protocol.replace(':', ''));
      } catch {
        return false;
      }
    },
    `must be a URL starting with ${schemes.map((s) => `${s}://`).join(' or ')}`,
  );

const MQTT_SCHEMES = ['mqtt', 'mqtts', 'tcp', 'ws', 'wss'];

/**
 * MQTT_URL: one broker, or several independent ones separated by commas (docs/operations.md "Beyond
 * one Mosquitto"): each instance then reads every broker, and sends commands and makes device
 * accounts on all of them.
 */
export const brokerUrls = (mqttUrl: string): string[] =>
  mqttUrl
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '');

const brokerList = (schemes: string[]) =>
  z.string().refine(
    (v) => {
      const urls = brokerUrls(v);
      const one = urlWithScheme(schemes);
      return urls.length > 0 && urls.every((url) => one.safeParse(url).success);
    },
    `must be a URL starting with ${schemes.map((s) => `${s}://`).join(' or ')}, or several separated by commas`,
  );

/** Names proxy-addr (Fastify's trustProxy) accepts for well-known ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** An address, an address/prefix, or one of PROXY_RANGE_NAMES. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry) || isIP(entry) !== 0) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (rest.length > 0 || family === 0 || !/^\d{1,3}$/.test(prefix ?? '')) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

const TRUST_PROXY_MESSAGE =
  'must be true, false, a hop count (1 to 100), or a comma-separated list of addresses or CIDRs';

/**
 * Which proxies may tell the client's address in X-Forwarded-For (docs/operations.md "Behind a
 * proxy"): Fastify's trustProxy takes the same three forms.
 */
const trustProxy = z.string().transform((value, context): TrustProxy => {
  const v = value.trim().toLowerCase();
  if (['false', '0', 'no', 'off'].includes(v)) return false;
  if (['true', 'yes', 'on'].includes(v)) return true;
  if (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 100) return Number(v);
  const entries = v.split(',').map((entry) => entry.trim());
  if (entries.every((entry) => entry !== '' && isProxyAddress(entry))) return entries;
  context.addIssue({ code: 'custom', message: TRUST_PROXY_MESSAGE });
  return z.NEVER;
});

export type TrustProxy = boolean | number | string[];

/** A key given in base64url, as `web-push generate-vapid-keys` prints it: exactly `bytes` bytes. */
function base64UrlKey(bytes: number, what: string) {
  return z
    .string()
    .refine(
      (v) => /^[A-Za-z0-9_-]+$/.test(v) && Buffer.from(v, 'base64url').length === bytes,
      `must be ${what} in base64url (${bytes} bytes)`,
    );
}

export type VapidKeys = { publicKey: string; privateKey: string; subject: string };

/**
 * OpenTelemetry's `key=value,key=value` lists (OTEL_RESOURCE_ATTRIBUTES, OTEL_EXPORTER_OTLP_HEADERS),
 * values percent-encoded as the specification has them.
 */
const keyValueList = z.string().transform((value, context): Record<string, string> => {
  const pairs: Record<string, string> = {};
  for (const item of value.split(',')) {
    const at = item.indexOf('=');
    const key = item.slice(0, at).trim();
    let decoded: string | undefined;
    try {
      decoded = decodeURIComponent(item.slice(at + 1).trim());
    } catch {
      decoded = undefined;
    }
    if (at <= 0 || key === '' || decoded === undefined) {
      context.addIssue({ code: 'custom', message: 'must be a comma-separated list of key=value' });
      return z.NEVER;
    }
    pairs[key] = decoded;
  }
  return pairs;
});

const EnvSchema = z.object({
  PORT: port(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: urlWithScheme(['postgres', 'postgresql']).optional(),
  DATABASE_POOL_SIZE: z.coerce
    .number({ error: 'must be an integer between 1 and 200' })
    .int('must be an integer between 1 and 200')
    .min(1, 'must be an integer between 1 and 200')
    .max(200, 'must be an integer between 1 and 200')
    .default(DEFAULT_POOL_SIZE),
  MQTT_URL: brokerList(MQTT_SCHEMES).optional(),
  MQTT_PORT: port(1883),
  MQTT_CLIENT_ID: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,40}$/, 'must be 1 to 40 letters, digits, _ or -')
    .optional(),
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: count(1, 100_000, 256),
  TRUST_PROXY: trustProxy.default(false),
  RATE_LIMIT_PER_MINUTE: count(1, 1_000_000, 1200),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').max(500).optional(),
  METRICS_PORT: portNumber.optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  MQTT_MAX_CONNECTIONS_PER_ADDRESS: count(1, 1_000_000, 1000),
  MQTT_INGEST_CONNECTIONS: count(1, 64, 1),
  TELEMETRY_RAW_RETENTION_DAYS: count(RAW_RETENTION_DAYS_MIN, 36_500, RAW_RETENTION_DAYS_DEFAULT),
  MQTT_DYNSEC_USERNAME: z.string().min(1).max(100).optional(),
  MQTT_DYNSEC_PASSWORD: z.string().min(1).max(200).optional(),
  PUBLIC_URL: urlWithScheme(['http', 'https']).optional(),
  SMTP_URL: urlWithScheme(['smtp', 'smtps']).optional(),
  SMTP_FROM: z.string().min(3).default('Flowbox Manager <no-reply@flowbox.local>'),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  VAPID_PUBLIC_KEY: base64UrlKey(65, 'an uncompressed P-256 public key').optional(),
  VAPID_PRIVATE_KEY: base64UrlKey(32, 'a P-256 private key').optional(),
  VAPID_SUBJECT: z
    .string()
    .refine(
      (v) => /^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/.test(v),
      'must be a mailto: address or an https:// URL',
    )
    .optional(),
  FLOWBOX_ADMIN_EMAIL: z.email('must be an email address').optional(),
  FLOWBOX_ADMIN_PASSWORD: passwordField.optional(),
  DEMO: flag.optional(),
  DEMO_FLEET: flag.optional(),
  DEMO_HISTORY: flag.optional(),
  DEMO_LEAKS: flag.optional(),
  DEMO_FIRST_LEAK_S: count(0, 86_400, 600),
  LOG_LEVEL: z
    .enum(
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
      'must be one of fatal, error, warn, info, debug, trace, silent',
    )
    .default('info'),
  // It goes into the web app's CSP (http/csp.ts): a URL template, nothing that could bend a header.
  MAP_TILE_URL: z
    .string()
    .max(500)
    .superRefine((v, ctx) => {
      const problem = tileTemplateProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  MAP_TILE_ATTRIBUTION: z
    .string()
    .min(1)
    .max(500)
    .refine((v) => !/[<>]/.test(v), 'must be plain text, its links written [label](https://…), not HTML')
    .optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: urlWithScheme(['http', 'https']).optional(),
  OTEL_EXPORTER_OTLP_HEADERS: keyValueList.optional(),
  OTEL_SERVICE_NAME: z.string().min(1).max(200).optional(),
  OTEL_RESOURCE_ATTRIBUTES: keyValueList.optional(),
  ACCESS_TOKEN_TTL: z.coerce.number().int().min(5, 'must be at least 5 seconds').max(86400).default(900),
  REFRESH_TOKEN_TTL: z.coerce
    .number()
    .int()
    .min(60)
    .max(31_536_000)
    .default(30 * 86400),
});

/** Values never echoed in an error line: they hold passwords. */
const SECRET_VARIABLES = new Set([
  'JWT_SECRET',
  'VAPID_PRIVATE_KEY',
  'FLOWBOX_ADMIN_PASSWORD',
  'DATABASE_URL',
  'SMTP_URL',
  'MQTT_URL',
  'MQTT_DYNSEC_PASSWORD',
  'METRICS_TOKEN',
  'OTEL_EXPORTER_OTLP_HEADERS',
  // A refused tile URL may hold a user and password, or a provider's key.
  'MAP_TILE_URL',
]);

function paramsOf(issue: z.core.$ZodIssue): Record<string, number> {
  return issue.code === 'too_small' ? { min: Number(issue.minimum) } : {};
}

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * With DATABASE_URL: connections this instance's pool opens at most (LISTEN has one more of its
   * own). N instances open up to N × (this + 1): keep it under PostgreSQL's max_connections.
   */
  databasePoolSize: number;
  /** MQTT_URL as given: one broker's URL, or several separated by commas (`brokerUrls`). */
  mqttUrl: string | undefined;
  mqttPort: number;
  /**
   * Simultaneous connections one client address may hold (docs/reliability.md "Connection floods
   * and timeouts"): browsers behind one NAT share it on HTTP, devices on MQTT. Behind a load balancer
   * that hides client addresses, raise HTTP's to what the balancer holds.
   */
  httpMaxConnectionsPerAddress: number;
  mqttMaxConnectionsPerAddress: number;
  /**
   * With MQTT_URL: this instance's connections reading device messages through shared subscriptions
   * (docs/operations.md "A fleet's broker"); with two or more, telemetry has its own, so readings never
   * wait behind presence, states, events and acks.
   */
  mqttIngestConnections: number;
  /** Proxies whose X-Forwarded-For names the client (off: the socket's address is the client's). */
  trustProxy: TrustProxy;
  /** Requests a minute one client address may make on the HTTP API and web app. */
  rateLimitPerMinute: number;
  /**
   * Days raw readings are kept (docs/decisions.md "Raw readings: weekly partitions, kept 90 days"):
   * older weeks are dropped whole; hourly and daily figures stay.
   */
  telemetryRawRetentionDays: number;
  /**
   * Prometheus metrics (docs/operations.md "Monitoring"): `/metrics` on the main port answers a
   * request bearing this token; on `metricsPort` (bound to `metricsHost`) it answers any request.
   * Neither set: `/metrics` answers 404.
   */
  metricsToken: string | undefined;
  metricsPort: number | undefined;
  metricsHost: string;
  /**
   * With MQTT_URL: this instance's stable MQTT client id prefix, so that after a crash it finds its
   * broker session and what was delivered to it unacknowledged (docs/telemetry.md). One per instance.
   */
  mqttClientId: string | undefined;
  /**
   * With MQTT_URL: the Mosquitto dynamic-security account the server creates and deletes device
   * accounts with (docs/protocol.md "External brokers: Mosquitto"); undefined: the operator does.
   */
  mqttDynsec: { username: string; password: string } | undefined;
  publicUrl: string;
  smtpUrl: string | undefined;
  smtpFrom: string;
  jwtSecret: string;
  /**
   * Web Push (docs/push.md): the VAPID key pair browsers subscribe with, and the contact push
   * services see. Set by VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or generated once and kept in
   * DATA_DIR like the JWT secret; a new pair leaves every subscription unusable.
   */
  vapid: VapidKeys;
  admin: { email: string; password: string } | undefined;
  demo: boolean;
  /** Simulated flowboxes paired to the demo zones (src/demo/fleet.ts); only with demo data. */
  demoFleet: boolean;
  /** The demo zones' past consumption written on first start (src/demo/history.ts); with the demo fleet. */
  demoHistory: boolean;
  /** The demo fleet's leak episodes (src/demo/leaks.ts): seconds before the first; false: none. */
  demoLeaks: { firstAfterS: number } | false;
  logLevel: string;
  /**
   * The maps' tile server (docs/operations.md "Maps"): a Leaflet URL template with {z}, {x}, {y}
   * (and {s} for subdomains); undefined: OpenStreetMap's. The web app's CSP allows its origin.
   */
  mapTileUrl: string | undefined;
  /** What the maps credit for their tiles (text, links as [label](https://…)); undefined: OpenStreetMap's. */
  mapTileAttribution: string | undefined;
  /**
   * OpenTelemetry traces (docs/operations.md "Tracing"), on when OTEL_EXPORTER_OTLP_ENDPOINT is set;
   * undefined: off, and the SDK is never loaded.
   */
  tracing: TracingConfig | undefined;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  webDist: string;
  /** Where images were uploaded before files moved to the database: imported from at start. */
  uploadsDir: string;
};

export class ConfigError extends Error {}

/**
 * The address a server listening on `host` is reached at from this machine: every interface
 * (0.0.0.0, ::) as localhost, an IPv6 address in brackets. PUBLIC_URL's default, so that the
 * address printed at start-up and the one emails and firmware downloads carry are the same origin.
 */
export function listenUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/** Reads and validates the environment; throws a ConfigError with one clear line on a bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0]);
    const message = isMessageKey(issue.message)
      ? `is not valid: ${translate(issue.message, 'en', paramsOf(issue))}`
      : issue.message;
    const shown = SECRET_VARIABLES.has(name) ? '' : ` (got "${String(cleaned[name])}")`;
    throw new ConfigError(`Invalid configuration: ${name} ${message}${shown}`);
  }
  const e = parsed.data;
  if (Boolean(e.FLOWBOX_ADMIN_EMAIL) !== Boolean(e.FLOWBOX_ADMIN_PASSWORD)) {
    throw new ConfigError(
      'Invalid configuration: FLOWBOX_ADMIN_EMAIL and FLOWBOX_ADMIN_PASSWORD go together; set both or neither',
    );
  }
  if (e.METRICS_PORT !== undefined && [e.PORT, e.MQTT_PORT].includes(e.METRICS_PORT))
    throw new ConfigError(
      `Invalid configuration: METRICS_PORT must differ from PORT and MQTT_PORT (got "${e.METRICS_PORT}")`,
    );
  const mqttDynsec = dynsecAccount(e.MQTT_URL, e.MQTT_DYNSEC_USERNAME, e.MQTT_DYNSEC_PASSWORD);
  if (Boolean(e.VAPID_PUBLIC_KEY) !== Boolean(e.VAPID_PRIVATE_KEY)) {
    throw new ConfigError(
      'Invalid configuration: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together; set both or neither',
    );
  }
  const dataDir = resolve(e.DATA_DIR);
  requireWritableFolder(dataDir);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    mqttUrl: e.MQTT_URL,
    mqttPort: e.MQTT_PORT,
    httpMaxConnectionsPerAddress: e.HTTP_MAX_CONNECTIONS_PER_ADDRESS,
    mqttMaxConnectionsPerAddress: e.MQTT_MAX_CONNECTIONS_PER_ADDRESS,
    mqttIngestConnections: e.MQTT_INGEST_CONNECTIONS,
    trustProxy: e.TRUST_PROXY,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    telemetryRawRetentionDays: e.TELEMETRY_RAW_RETENTION_DAYS,
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
    metricsHost: e.METRICS_HOST,
    mqttClientId: e.MQTT_CLIENT_ID,
    mqttDynsec,
    // Without PUBLIC_URL, the address the server listens on, as start-up prints it (issue 30).
    publicUrl: (e.PUBLIC_URL ?? listenUrl(e.HOST, e.PORT)).replace(/\/$/, ''),
    smtpUrl: e.SMTP_URL,
    smtpFrom: e.SMTP_FROM,
    jwtSecret: e.JWT_SECRET ?? loadOrCreateSecret(dataDir),
    vapid: vapidKeys(e, dataDir),
    admin: e.FLOWBOX_ADMIN_EMAIL
      ? { email: e.FLOWBOX_ADMIN_EMAIL.toLowerCase(), password: e.FLOWBOX_ADMIN_PASSWORD! }
      : undefined,
    demo: e.DEMO ?? !e.DATABASE_URL,
    demoFleet: (e.DEMO ?? !e.DATABASE_URL) && (e.DEMO_FLEET ?? true),
    demoHistory: e.DEMO_HISTORY ?? true,
    demoLeaks: (e.DEMO_LEAKS ?? true) && { firstAfterS: e.DEMO_FIRST_LEAK_S },
    logLevel: e.LOG_LEVEL,
    mapTileUrl: e.MAP_TILE_URL,
    mapTileAttribution: e.MAP_TILE_ATTRIBUTION,
    tracing: e.OTEL_EXPORTER_OTLP_ENDPOINT
      ? {
          endpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, ''),
          headers: e.OTEL_EXPORTER_OTLP_HEADERS ?? {},
          // As the specification has it: OTEL_SERVICE_NAME first, then the attributes' own.
          resource: {
            ...e.OTEL_RESOURCE_ATTRIBUTES,
            'service.name':
              e.OTEL_SERVICE_NAME ?? e.OTEL_RESOURCE_ATTRIBUTES?.['service.name'] ?? 'flowbox-manager',
          },
        }
      : undefined,
    accessTokenTtl: e.ACCESS_TOKEN_TTL,
    refreshTokenTtl: e.REFRESH_TOKEN_TTL,
    webDist: resolve(import.meta.dirname, '../../web/dist'),
    uploadsDir: join(dataDir, 'uploads'),
  };
}

/**
 * The dynamic-security account goes with an external broker, user name and password together. The
 * server creates and deletes accounts named after serials (`FB-1`, `bootstrap.FB-1`): neither its
 * own accounts may read as one, or pairing a device of that serial would replace them.
 */
function dynsecAccount(
  mqttUrl: string | undefined,
  username: string | undefined,
  password: string | undefined,
): Config['mqttDynsec'] {
  if (username === undefined && password === undefined) return undefined;
  const fail = (message: string) => new ConfigError(`Invalid configuration: ${message}`);
  if (username === undefined || password === undefined)
    throw fail('MQTT_DYNSEC_USERNAME and MQTT_DYNSEC_PASSWORD go together; set both or neither');
  if (!mqttUrl)
    throw fail('MQTT_DYNSEC_USERNAME needs MQTT_URL: the embedded broker checks device credentials itself');
  if (identityFromUsername(username))
    throw fail(
      `MQTT_DYNSEC_USERNAME must not read as a device's user name: put a "." or "$" in it, such as flowbox.admin (got "${username}")`,
    );
  const owns = brokerUrls(mqttUrl).map((url) => decodeURIComponent(new URL(url).username));
  if (owns.some((own) => own && identityFromUsername(own)))
    throw fail(
      `MQTT_URL's user name must not read as a device's when the server manages device accounts: put a "." or "$" in it, such as flowbox.server`,
    );
  return { username, password };
}

/** DESIGN.md §8: without JWT_SECRET a secret is generated once and kept in DATA_DIR. */
/**
 * DATA_DIR holds the embedded database, the generated secret and uploads: a folder the server
 * cannot create or write is said in one line at start (README), not met later as a stack trace or a
 * failed upload.
 */
function requireWritableFolder(dir: string): void {
  const probe = join(dir, `.write-check-${process.pid}`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new ConfigError(
      `Invalid configuration: DATA_DIR must be a folder this server can create and write (got "${dir}": ${code})`,
    );
  }
}

/**
 * The VAPID keys (RFC 8292): VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or a pair generated once and
 * kept in DATA_DIR (mode 0600) like the JWT secret. The subject is the contact a push service may
 * write to: VAPID_SUBJECT, else PUBLIC_URL when it is https, else a mailto: of no one in particular
 * (Apple's service refuses a subject that is neither).
 */
function vapidKeys(
  e: { VAPID_PUBLIC_KEY?: string; VAPID_PRIVATE_KEY?: string; VAPID_SUBJECT?: string; PUBLIC_URL?: string },
  dataDir: string,
): VapidKeys {
  const pair =
    e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY
      ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY }
      : loadOrCreateVapidPair(dataDir);
  const publicUrl = e.PUBLIC_URL?.replace(/\/$/, '');
  const subject =
    e.VAPID_SUBJECT ?? (publicUrl?.startsWith('https://') ? publicUrl : 'mailto:no-reply@flowbox.local');
  return { ...pair, subject };
}

function loadOrCreateVapidPair(dataDir: string): Pick<VapidKeys, 'publicKey' | 'privateKey'> {
  const file = join(dataDir, 'vapid-keys.json');
  if (existsSync(file)) {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { publicKey?: unknown; privateKey?: unknown };
    if (typeof kept.publicKey === 'string' && typeof kept.privateKey === 'string')
      return { publicKey: kept.publicKey, privateKey: kept.privateKey };
    throw new ConfigError(
      `Invalid configuration: ${file} does not hold a VAPID key pair; remove it to generate one`,
    );
  }
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const privateKey = ecdh.getPrivateKey();
  const kept = {
    publicKey: ecdh.getPublicKey().toString('base64url'),
    // A private key whose first bytes are zero comes shorter: VAPID wants all 32.
    privateKey: Buffer.concat([Buffer.alloc(32 - privateKey.length), privateKey]).toString('base64url'),
  };
  writeFileSync(file, JSON.stringify(kept), { mode: 0o600 });
  return kept;
}

function loadOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
