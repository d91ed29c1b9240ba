import { METRICS_PATH, routeOf } from './metrics.ts';
import type { App } from './types.ts';

/** Health checks and scrapes come every few seconds: their lines only when debugging. */
const QUIET_ROUTES = new Set(['/v1/health', '/v1/health/live', '/v1/health/ready', METRICS_PATH]);

/**
 * One line per answered request (docs/operations.md "Logs"): its id (the `reqId` of every line
 * it logs), the user when signed in, the route pattern (never the URL: a query can hold a ticket),
 * the status and the time taken. Never headers, cookies or bodies.
 */
export function logRequests(app: App): void {
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
