import type { ServerResponse } from 'node:http';
import { LiveTicketSchema, type LiveMessage } from '@flowbox/shared';
import { z } from 'zod';
import { canReadPlace, canReadZone, readsConsumption, type Actor } from '../access/access.ts';
import { TokenSigner } from '../auth/index.ts';
import { actorOf, bearerToken, errorResponses, type App } from '../http/types.ts';
import type { LiveHub } from './live.ts';
import type { AuthService } from '../auth/auth.service.ts';

/** Long enough to open the stream right after asking, short enough that a leaked URL is worthless. */
export const LIVE_TICKET_TTL_S = 60;
/** Comments keep proxies from closing an idle stream. */
const KEEP_ALIVE_MS = 25_000;

type LiveOptions = {
  hub: LiveHub;
  auth: AuthService;
  jwtSecret: string;
  now: () => Date;
  maxStreamS: number;
};

/**
 * Who sees a live message: whoever may read its zone, as with the REST calls (docs/permissions.md);
 * firmware is managers' business, consumption no plumber's.
 */
export function mayReceive(actor: Actor, message: LiveMessage): boolean {
  if (message.type === 'firmware_rollout') return canReadPlace(actor, message.customer_id, message.site_id);
  const { customer_id, site_id, zone_id } = message.type === 'flowbox' ? message.flowbox : message;
  if (message.type === 'firmware_update') return canReadPlace(actor, customer_id, site_id);
  if (message.type === 'consumption' && !readsConsumption(actor)) return false;
  return canReadZone(actor, { customerId: customer_id, siteId: site_id, zoneId: zone_id });
}

/** The ticket call, behind the Bearer token like every other call. */
export function liveTicketRoutes(app: App, options: LiveOptions): void {
  const signer = new TokenSigner(
    options.jwtSecret,
    { access: LIVE_TICKET_TTL_S, refresh: LIVE_TICKET_TTL_S },
    options.now,
  );
  app.post(
    '/live/ticket',
    {
      schema: {
        tags: ['live'],
        security: [{ bearer: [] }],
        summary: 'A ticket for GET /v1/live/stream (EventSource cannot send the Authorization header)',
        body: z.object({}).nullish(),
        response: { 200: LiveTicketSchema, ...errorResponses },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const ticket = await signer.signAccess({ userId: actor.id, sessionId: actor.sessionId });
      return { ticket, expires_in: LIVE_TICKET_TTL_S };
    },
  );
}

/**
 * `GET /v1/live/stream`: Server-Sent Events (DESIGN.md §6). Signed in by `?ticket=` (or the Bearer
 * header); the stream ends when the session's access token would have expired, and the browser
 * opens a new one with a fresh ticket, so a revoked session stops receiving within that time.
 */
export function liveStreamRoutes(app: App, options: LiveOptions): void {
  const open = new Set<ServerResponse>();
  app.addHook('preClose', async () => {
    for (const response of open) response.end();
  });
  app.get(
    '/live/stream',
    {
      schema: {
        tags: ['live'],
        summary: 'Live device state, connection and command outcomes, as text/event-stream',
        security: [{ bearer: [] }],
        querystring: z.object({ ticket: z.string().max(2000).optional() }),
        response: {
          200: {
            description:
              'One `event:` per LiveMessage (flowbox, flowbox_removed, command), its JSON as `data:`',
            content: { 'text/event-stream': { schema: z.string() } },
          },
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const actor = await options.auth.authenticate(request.query.ticket ?? bearerToken(request));
      reply.hijack();
      const response = reply.raw;
      response.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-content-type-options': 'nosniff',
        'x-accel-buffering': 'no',
      });
      response.write('retry: 2000\n\n');
      open.add(response);
      const unsubscribe = options.hub.subscribe((message) => {
        if (mayReceive(actor, message))
          response.write(`event: ${message.type}\ndata: ${JSON.stringify(message)}\n\n`);
      });
      const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
      const maxAge = setTimeout(() => response.end(), options.maxStreamS * 1000);
      response.on('close', () => {
        open.delete(response);
        unsubscribe();
        clearInterval(keepAlive);
        clearTimeout(maxAge);
      });
    },
  );
}
