import { timingSafeEqual, createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { FastifyRequest } from 'fastify';
import { AppError, notFound } from '../errors.ts';
import type { App } from './types.ts';

/** Every metric of the product starts with this (docs/operations.md "Monitoring"). */
const PREFIX = 'flowbox_';

/** Seconds: API answers take milliseconds; a slow export or upload takes seconds. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A sample read from the counters a part of the server keeps: its labels and its value. */
export type Sample<L extends string> = { labels?: Partial<Record<L, string>>; value: number };

/**
 * One server instance's Prometheus metrics (docs/operations.md "Monitoring"). Each instance has
 * its own registry, so that several servers in one process (the tests) never mix their figures.
 *
 * The parts of the server keep their own counters (the JSON `/v1/metrics` shows the same objects);
 * the metrics here read them when scraped, so there is one source of truth. Only what exists
 * nowhere else (request durations, batch durations) is recorded here as it happens.
 */
export class InstanceMetrics {
  readonly registry = new Registry();
  private readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: PREFIX });
    this.httpDuration = new Histogram({
      name: `${PREFIX}http_request_duration_seconds`,
      help: 'HTTP requests by route pattern and status: how long each took to answer',
      labelNames: ['method', 'route', 'status_code'],
      buckets: HTTP_BUCKETS,
      registers: [this.registry],
    });
  }

  /** A counter that reads its values, by labels, from counters kept elsewhere. */
  counterFrom<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    read: () => Sample<L>[],
  ): void {
    new Counter<L>({
      name: PREFIX + name,
      help,
      labelNames,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const { labels, value } of read()) this.inc((labels ?? {}) as Record<L, string>, value);
      },
    });
  }

  /** A gauge that reads its values, by labels, when scraped. */
  gaugeFrom<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    read: () => Sample<L>[],
  ): void {
    new Gauge<L>({
      name: PREFIX + name,
      help,
      labelNames,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const { labels, value } of read()) this.set((labels ?? {}) as Record<L, string>, value);
      },
    });
  }

  /** A histogram observed as things happen (in seconds). */
  histogram<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    buckets: number[],
  ): Histogram<L> {
    return new Histogram<L>({ name: PREFIX + name, help, labelNames, buckets, registers: [this.registry] });
  }

  /**
   * Times every answer by its route pattern (`/v1/zones/:zoneId`, never the URL with its ids and
   * query, which would make a series per zone and could carry secrets); no route: `unmatched`.
   */
  timeRequests(app: App): void {
    app.addHook('onResponse', async (request, reply) => {
      this.httpDuration.observe(
        { method: request.method, route: routeOf(request), status_code: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
    });
  }

  /** The text a Prometheus scrape reads. */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

/** The route pattern of a request, or `unmatched` (a 404 on no route). */
export function routeOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? 'unmatched';
}

/** Where `/metrics` answers (docs/operations.md "Monitoring"). */
export type MetricsAccess = {
  /** `/metrics` on the main port answers a request bearing it; without it, 404 there. */
  token: string | undefined;
};

/** The path a Prometheus server scrapes, on the main port and on METRICS_PORT. */
export const METRICS_PATH = '/metrics';

/**
 * `/metrics` on the main port: 404 unless the operator set a token, then 401 without it. It is
 * compared in constant time (through digests of equal length), so an answer's timing tells nothing
 * of how much of a guess was right.
 */
export function metricsRoute(app: App, metrics: InstanceMetrics, access: MetricsAccess): void {
  const expected = access.token === undefined ? undefined : digest(access.token);
  app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
    if (expected === undefined) throw notFound();
    const given = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (given === undefined || !timingSafeEqual(digest(given), expected))
      throw new AppError('errors.auth_expired');
    return reply.type(metrics.contentType).send(await metrics.scrape());
  });
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * METRICS_PORT: a listener of its own that answers `/metrics` to anyone who reaches it, which the
 * operator limits by binding it (METRICS_HOST, 127.0.0.1 by default) and by the network.
 */
export async function listenForScrapes(
  metrics: InstanceMetrics,
  port: number,
  host: string,
): Promise<{ close: () => Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== METRICS_PATH) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    metrics.scrape().then(
      (text) => response.writeHead(200, { 'content-type': metrics.contentType }).end(text),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics failed\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
