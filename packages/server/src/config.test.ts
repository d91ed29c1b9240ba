import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { brokerUrls, ConfigError, loadConfig } from './config.ts';

const dataDir = () => mkdtempSync(join(tmpdir(), 'fbx-config-'));

describe('configuration (DESIGN.md §8)', () => {
  it('runs on embedded defaults: PGlite, embedded broker, demo data on', () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    expect(config).toMatchObject({
      port: 8080,
      mqttPort: 1883,
      databaseUrl: undefined,
      mqttUrl: undefined,
      demo: true,
      demoFleet: true,
    });
    // The address start-up prints (startup.test.ts): HOST's, 127.0.0.1 by default.
    expect(config.publicUrl).toBe('http://127.0.0.1:8080');
  });

  it('traces only when OTEL_EXPORTER_OTLP_ENDPOINT is set, naming the service flowbox-manager unless told', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).tracing).toBeUndefined();
    expect(loadConfig({ DATA_DIR: dataDir(), OTEL_SERVICE_NAME: 'x' }).tracing).toBeUndefined();
    expect(
      loadConfig({ DATA_DIR: dataDir(), OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).tracing,
    ).toEqual({
      endpoint: 'http://collector:4318',
      headers: {},
      resource: { 'service.name': 'flowbox-manager' },
    });
    const told = loadConfig({
      DATA_DIR: dataDir(),
      OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector.example/otlp',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=k%3Dey,tenant=a',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod, service.name=ignored',
      OTEL_SERVICE_NAME: 'flowbox-eu',
    }).tracing;
    expect(told).toEqual({
      endpoint: 'https://collector.example/otlp',
      headers: { 'x-api-key': 'k=ey', tenant: 'a' },
      resource: { 'deployment.environment': 'prod', 'service.name': 'flowbox-eu' },
    });
    const attributes = { DATA_DIR: dataDir(), OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
    expect(
      loadConfig({ ...attributes, OTEL_RESOURCE_ATTRIBUTES: 'service.name=mine' }).tracing?.resource,
    ).toEqual({
      'service.name': 'mine',
    });
    expect(() => loadConfig({ ...attributes, OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      'OTEL_EXPORTER_OTLP_ENDPOINT must be a URL starting with http:// or https://',
    );
    // Headers hold API keys: the line does not repeat the value.
    expect(() => loadConfig({ ...attributes, OTEL_EXPORTER_OTLP_HEADERS: 'Bearer abc' })).toThrow(
      /^Invalid configuration: OTEL_EXPORTER_OTLP_HEADERS must be a comma-separated list of key=value$/,
    );
  });

  it('takes a stable MQTT client id for the ingest sessions, and refuses one no broker accepts', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), MQTT_CLIENT_ID: 'flowbox-a' }).mqttClientId).toBe('flowbox-a');
    expect(loadConfig({ DATA_DIR: dataDir() }).mqttClientId).toBeUndefined();
    expect(() => loadConfig({ DATA_DIR: dataDir(), MQTT_CLIENT_ID: 'a/b' })).toThrow(
      'Invalid configuration: MQTT_CLIENT_ID must be 1 to 40 letters, digits, _ or - (got "a/b")',
    );
  });

  it('takes MAP_TILE_URL as a tile URL template only, refusing in one line what would bend the CSP (issue 30)', () => {
    const tiles = (url: string) => loadConfig({ DATA_DIR: dataDir(), MAP_TILE_URL: url }).mapTileUrl;
    for (const good of [
      'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      'https://{s}.tiles.example:8443/v1/{z}/{x}/{y}{r}.png?key=abc123',
      'http://127.0.0.1:9000/tiles/{z}/{x}/{y}.png',
      'http://[::1]:9000/{z}/{x}/{y}.png',
    ])
      expect(tiles(good)).toBe(good);
    const refused: [string, RegExp][] = [
      ["https://tiles.example/{z}/{x}/{y}.png; script-src 'unsafe-inline'", /no whitespace, ;/],
      ['https://tiles.example;/{z}/{x}/{y}.png', /no whitespace, ;/],
      ['https://tiles.example/{z}/{x}/{y}.png,https://evil.example', /comma/],
      ["https://tiles.example/{z}/{x}/{y}.png'", /quote/],
      ['https://user:pw@tiles.example/{z}/{x}/{y}.png', /no user name or password/],
      ['https://user@tiles.example/{z}/{x}/{y}.png', /no user name or password/],
      ['https://*.tiles.example/{z}/{x}/{y}.png', /no host name/],
      ['https://{z}/{x}/{y}', /no placeholder but \{s\} in its host/],
      ['https://tiles.example/{z}/{x}/{-y}.png', /only \{s\}, \{z\}, \{x\}, \{y\} and \{r\}/],
      ['https://tiles.example/{z}/{x}/{y}.png{', /brace/],
      ['https://tiles.example/{z}/{x}.png', /must hold \{z\}, \{x\} and \{y\}/],
      ['ftp://tiles.example/{z}/{x}/{y}.png', /https:\/\/ or http:\/\//],
      ['javascript:alert(1)//{z}{x}{y}', /https:\/\/ or http:\/\//],
      ['tiles/{z}/{x}/{y}', /http\(s\) URL template/],
    ];
    // The refused value is not repeated: it may hold a password or a provider's key.
    expect(() => tiles('https://user:s3cret@tiles.example/{z}/{x}/{y}.png')).not.toThrow(/s3cret/);
    for (const [bad, why] of refused) {
      expect(() => tiles(bad), bad).toThrow(ConfigError);
      expect(() => tiles(bad), bad).toThrow(/^Invalid configuration: MAP_TILE_URL /);
      expect(() => tiles(bad), bad).toThrow(why);
    }
  });

  it('takes one broker or several independent ones in MQTT_URL, each a URL', () => {
    const env = (MQTT_URL: string) => ({ DATA_DIR: dataDir(), MQTT_URL });
    const several = 'mqtt://flowbox.server:pw@broker-1:1883, mqtts://flowbox.server:pw@broker-2:8883';
    expect(loadConfig(env(several)).mqttUrl).toBe(several);
    expect(brokerUrls(several)).toEqual([
      'mqtt://flowbox.server:pw@broker-1:1883',
      'mqtts://flowbox.server:pw@broker-2:8883',
    ]);
    expect(brokerUrls('mqtt://broker:1883')).toEqual(['mqtt://broker:1883']);
    for (const bad of ['mqtt://a:1883,http://b', 'mqtt://a:1883,broker-2', ','])
      expect(() => loadConfig(env(bad)), bad).toThrow(
        'Invalid configuration: MQTT_URL must be a URL starting with mqtt:// or mqtts:// or tcp:// or ws:// or wss://, or several separated by commas',
      );
  });

  it('takes the Mosquitto dynamic-security account with an external broker, and refuses one that cannot work', () => {
    const broker = { DATA_DIR: dataDir(), MQTT_URL: 'mqtts://flowbox.server:pw@broker:8883' };
    const account = { MQTT_DYNSEC_USERNAME: 'flowbox.admin', MQTT_DYNSEC_PASSWORD: 's3cret' };
    expect(loadConfig({ ...broker, ...account }).mqttDynsec).toEqual({
      username: 'flowbox.admin',
      password: 's3cret',
    });
    expect(loadConfig(broker).mqttDynsec).toBeUndefined();
    const refusals: [Record<string, string>, string][] = [
      [
        { ...broker, MQTT_DYNSEC_USERNAME: 'flowbox.admin' },
        'Invalid configuration: MQTT_DYNSEC_USERNAME and MQTT_DYNSEC_PASSWORD go together; set both or neither',
      ],
      [
        { DATA_DIR: dataDir(), ...account },
        'Invalid configuration: MQTT_DYNSEC_USERNAME needs MQTT_URL: the embedded broker checks device credentials itself',
      ],
      [
        { ...broker, ...account, MQTT_DYNSEC_USERNAME: 'admin' },
        `Invalid configuration: MQTT_DYNSEC_USERNAME must not read as a device's user name: put a "." or "$" in it, such as flowbox.admin (got "admin")`,
      ],
      [
        { ...broker, ...account, MQTT_URL: 'mqtt://server:pw@broker:1883' },
        `Invalid configuration: MQTT_URL's user name must not read as a device's when the server manages device accounts: put a "." or "$" in it, such as flowbox.server`,
      ],
      [
        { ...broker, ...account, MQTT_URL: 'mqtt://flowbox.server:pw@a:1883,mqtt://server:pw@b:1883' },
        `Invalid configuration: MQTT_URL's user name must not read as a device's when the server manages device accounts: put a "." or "$" in it, such as flowbox.server`,
      ],
    ];
    for (const [env, message] of refusals) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(message);
    }
    // The password is never echoed.
    expect(() => loadConfig({ ...broker, ...account, MQTT_DYNSEC_PASSWORD: 'x'.repeat(201) })).toThrow(
      /^Invalid configuration: MQTT_DYNSEC_PASSWORD [^"]*$/,
    );
  });

  it('refuses in one line a DATA_DIR it cannot create or write', () => {
    const file = join(dataDir(), 'a-file');
    writeFileSync(file, '');
    for (const dir of [file, join(file, 'data')]) {
      expect(() => loadConfig({ DATA_DIR: dir })).toThrow(ConfigError);
      expect(() => loadConfig({ DATA_DIR: dir })).toThrow(
        /^Invalid configuration: DATA_DIR must be a folder this server can create and write \(got ".*": E[A-Z]+\)$/,
      );
    }
  });

  it('turns demo data off by default when DATABASE_URL points at PostgreSQL', () => {
    const config = loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: 'postgres://u@db:5432/flowbox' });
    expect(config.demo).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: 'postgres://u@db/f', DEMO: 'true' }).demo).toBe(
      true,
    );
  });

  it('sizes the PostgreSQL pool from DATABASE_POOL_SIZE (10 by default), and refuses a size that cannot work', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).databasePoolSize).toBe(10);
    expect(loadConfig({ DATA_DIR: dataDir(), DATABASE_POOL_SIZE: '25' }).databasePoolSize).toBe(25);
    for (const size of ['0', '2.5', 'ten', '500'])
      expect(() => loadConfig({ DATA_DIR: dataDir(), DATABASE_POOL_SIZE: size })).toThrow(
        `Invalid configuration: DATABASE_POOL_SIZE must be an integer between 1 and 200 (got "${size}")`,
      );
  });

  it('trusts no proxy by default, and takes true, a hop count or a list of addresses and CIDRs', () => {
    const trust = (value?: string) =>
      loadConfig({ DATA_DIR: dataDir(), ...(value === undefined ? {} : { TRUST_PROXY: value }) }).trustProxy;
    expect(trust()).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('true')).toBe(true);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.1, 192.168.0.0/16,fd00::/8,loopback')).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      'fd00::/8',
      'loopback',
    ]);
    for (const value of ['maybe', '10.0.0.300', '10.0.0.0/33', '10.0.0.1,', '-1', '101', 'fd00::/129'])
      expect(() => loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: value })).toThrow(
        `Invalid configuration: TRUST_PROXY must be true, false, a hop count (1 to 100), or a comma-separated list of addresses or CIDRs (got "${value}")`,
      );
  });

  it('limits requests to 1,200 a minute per client by default, RATE_LIMIT_PER_MINUTE otherwise', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).rateLimitPerMinute).toBe(1200);
    expect(loadConfig({ DATA_DIR: dataDir(), RATE_LIMIT_PER_MINUTE: '6000' }).rateLimitPerMinute).toBe(6000);
    for (const value of ['0', 'lots', '1.5'])
      expect(() => loadConfig({ DATA_DIR: dataDir(), RATE_LIMIT_PER_MINUTE: value })).toThrow(
        `Invalid configuration: RATE_LIMIT_PER_MINUTE must be an integer between 1 and 1000000 (got "${value}")`,
      );
  });

  it('serves no metrics unless METRICS_TOKEN or METRICS_PORT says where, and never echoes the token', () => {
    expect(loadConfig({ DATA_DIR: dataDir() })).toMatchObject({
      metricsToken: undefined,
      metricsPort: undefined,
      metricsHost: '127.0.0.1',
    });
    const token = 'scrape-me-0123456789';
    expect(
      loadConfig({
        DATA_DIR: dataDir(),
        METRICS_TOKEN: token,
        METRICS_PORT: '9464',
        METRICS_HOST: '10.0.0.5',
      }),
    ).toMatchObject({ metricsToken: token, metricsPort: 9464, metricsHost: '10.0.0.5' });
    expect(() => loadConfig({ DATA_DIR: dataDir(), METRICS_TOKEN: 'short' })).toThrow(
      /^Invalid configuration: METRICS_TOKEN must be at least 16 characters$/,
    );
    expect(() => loadConfig({ DATA_DIR: dataDir(), METRICS_PORT: '8080' })).toThrow(
      'Invalid configuration: METRICS_PORT must differ from PORT and MQTT_PORT (got "8080")',
    );
    expect(() => loadConfig({ DATA_DIR: dataDir(), METRICS_PORT: 'x' })).toThrow(
      'Invalid configuration: METRICS_PORT must be an integer between 1 and 65535 (got "x")',
    );
  });

  it('runs the demo fleet only with demo data, unless DEMO_FLEET=false', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), DEMO_FLEET: 'false' })).toMatchObject({
      demo: true,
      demoFleet: false,
    });
    expect(loadConfig({ DATA_DIR: dataDir(), DEMO: 'false', DEMO_FLEET: 'true' }).demoFleet).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: 'postgres://u@db/f' }).demoFleet).toBe(false);
  });

  it('generates a JWT secret once and keeps it in DATA_DIR', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir }).jwtSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe(first);
    expect(readFileSync(join(dir, 'jwt-secret'), 'utf8')).toBe(first);
  });

  it('generates a VAPID key pair once and keeps it in DATA_DIR, beside the JWT secret', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir }).vapid;
    expect(Buffer.from(first.publicKey, 'base64url')).toHaveLength(65);
    expect(Buffer.from(first.privateKey, 'base64url')).toHaveLength(32);
    expect(loadConfig({ DATA_DIR: dir }).vapid).toEqual(first);
    expect(JSON.parse(readFileSync(join(dir, 'vapid-keys.json'), 'utf8'))).toEqual({
      publicKey: first.publicKey,
      privateKey: first.privateKey,
    });
    expect(first.subject).toBe('mailto:no-reply@flowbox.local');
    expect(loadConfig({ DATA_DIR: dir, PUBLIC_URL: 'https://flowbox.example.com/' }).vapid.subject).toBe(
      'https://flowbox.example.com',
    );
  });

  it('takes the VAPID keys and subject from the environment', () => {
    const keys = {
      VAPID_PUBLIC_KEY: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url'),
      VAPID_PRIVATE_KEY: Buffer.alloc(32, 9).toString('base64url'),
    };
    const dir = dataDir();
    expect(loadConfig({ DATA_DIR: dir, ...keys, VAPID_SUBJECT: 'mailto:ops@example.com' }).vapid).toEqual({
      publicKey: keys.VAPID_PUBLIC_KEY,
      privateKey: keys.VAPID_PRIVATE_KEY,
      subject: 'mailto:ops@example.com',
    });
    expect(existsSync(join(dir, 'vapid-keys.json'))).toBe(false);
    expect(() => loadConfig({ DATA_DIR: dir, VAPID_PUBLIC_KEY: keys.VAPID_PUBLIC_KEY })).toThrow(
      'Invalid configuration: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together; set both or neither',
    );
    expect(() => loadConfig({ DATA_DIR: dir, ...keys, VAPID_PRIVATE_KEY: 'c2hvcnQ' })).toThrow(
      'Invalid configuration: VAPID_PRIVATE_KEY must be a P-256 private key in base64url (32 bytes)',
    );
    expect(() => loadConfig({ DATA_DIR: dir, ...keys, VAPID_SUBJECT: 'ops@example.com' })).toThrow(
      'Invalid configuration: VAPID_SUBJECT must be a mailto: address or an https:// URL (got "ops@example.com")',
    );
  });

  it.each([
    [{ PORT: 'eighty' }, 'Invalid configuration: PORT must be an integer between 1 and 65535 (got "eighty")'],
    [
      { MQTT_PORT: '70000' },
      'Invalid configuration: MQTT_PORT must be an integer between 1 and 65535 (got "70000")',
    ],
    [
      { DATABASE_URL: 'mysql://x' },
      'Invalid configuration: DATABASE_URL must be a URL starting with postgres:// or postgresql://',
    ],
    [
      { MQTT_URL: 'http://broker' },
      'Invalid configuration: MQTT_URL must be a URL starting with mqtt:// or mqtts:// or tcp:// or ws:// or wss://, or several separated by commas',
    ],
    [{ DEMO: 'maybe' }, 'Invalid configuration: DEMO must be true or false (got "maybe")'],
    [{ DEMO_FLEET: 'few' }, 'Invalid configuration: DEMO_FLEET must be true or false (got "few")'],
    [{ JWT_SECRET: 'short' }, 'Invalid configuration: JWT_SECRET must be at least 32 characters'],
    [
      { LOG_LEVEL: 'loud' },
      'Invalid configuration: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
    ],
    [
      { FLOWBOX_ADMIN_EMAIL: 'boss@x.io' },
      'Invalid configuration: FLOWBOX_ADMIN_EMAIL and FLOWBOX_ADMIN_PASSWORD go together; set both or neither',
    ],
    [
      { FLOWBOX_ADMIN_EMAIL: 'boss@x.io', FLOWBOX_ADMIN_PASSWORD: 'abc1' },
      'Invalid configuration: FLOWBOX_ADMIN_PASSWORD is not valid: The password must be at least 8 characters long',
    ],
    [
      { FLOWBOX_ADMIN_EMAIL: 'boss@x.io', FLOWBOX_ADMIN_PASSWORD: 'password' },
      'Invalid configuration: FLOWBOX_ADMIN_PASSWORD is not valid: The password must contain at least one number and one letter',
    ],
  ])('refuses %o with one clear line', (env, message) => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(new ConfigError(message));
  });
});
