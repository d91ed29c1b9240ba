import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import type { App } from './types.ts';

/**
 * The rate limit's client key: request.ip (the client's, through a trusted proxy), with the
 * plugin's own grouping of an IPv6 address by its /64 (one host holds a whole /64). A client gone
 * before its request was handled has no address any more; the plugin's default key generator
 * then failed with "reading 'toLowerCase'", an error logged for nobody to answer.
 */
export function rateLimitKey(request: { ip: string | undefined }): string {
  return request.ip ? normalizeIP(request.ip) : 'disconnected-client';
}

/**
 * Requests a minute per client on every route. A request `deviceKey` names a device for (a
 * firmware download its device's credentials open) counts against the device instead.
 */
export async function limitRequests(
  app: App,
  perMinute: number,
  deviceKey: (request: FastifyRequest) => Promise<string | undefined>,
): Promise<void> {
  await app.register(fastifyRateLimit, {
    global: false,
    max: perMinute,
    timeWindow: '1 minute',
    keyGenerator: async (request) => (await deviceKey(request)) ?? rateLimitKey(request),
  });
  // At the root, so on every request and before the routes' own hooks: as the plugin's per-route
  // hook it ran after the protected routes' authentication, so requests with a bad token (and
  // unknown paths) were never counted.
  app.addHook('onRequest', app.rateLimit());
}

/** Every 429 says when to come back, whichever limit answered it (RFC 9110 §10.2.3). */
export function retryAfterOnTooMany(app: App): void {
  app.addHook('onSend', async (_request, reply) => {
    if (reply.statusCode === 429 && !reply.hasHeader('retry-after')) reply.header('retry-after', '60');
  });
}
