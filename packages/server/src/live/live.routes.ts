import { ApiErrorSchema, LiveTicketSchema } from '@flowbox/shared';
import { z } from 'zod';
import type { Actor } from '../access/access.ts';
import { AppError } from '../errors.ts';
import { actorOf, bearerToken, errorResponses, type App } from '../http/types.ts';
import type { LiveHub } from './live.ts';
import { LIVE_TICKET_TTL_S, LiveStreams, type LiveSession } from './streams.ts';

export { MAX_LIVE_STREAMS_PER_USER } from './streams.ts';

/** Comments keep proxies from closing an idle stream. */
const KEEP_ALIVE_MS = 25_000;

/** What the stream needs of the sign-in: app.ts gives AuthService, so live imports no domain above it. */
type LiveSignIn = {
  authenticate(accessToken: string): Promise<Actor>;
  currentActor(session: LiveSession): Promise<Actor | undefined>;
  onUserChange(listener: (userId: string) => void): unknown;
  issueLiveTicket(actor: Actor): Promise<string>;
  redeemLiveTicket(ticket: string): Promise<LiveSession>;
};

type LiveOptions = {
  hub: LiveHub;
  auth: LiveSignIn;
  maxStreamS: number;
};

/** The ticket call, behind the Bearer token like every other call. */
export function liveTicketRoutes(app: App, options: LiveOptions): void {
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
    async (request) => ({
      ticket: await options.auth.issueLiveTicket(actorOf(request)),
      expires_in: LIVE_TICKET_TTL_S,
    }),
  );
}

/**
 * `GET /v1/live/stream`: Server-Sent Events (DESIGN.md §6). Signed in by `?ticket=` (one stream a
 * ticket) or the Bearer header; the stream follows its session as requests do (streams.ts), and
 * ends when the session's access token would have expired anyway: the browser opens a new one with
 * a fresh ticket.
 */
export function liveStreamRoutes(app: App, options: LiveOptions): void {
  const streams = new LiveStreams((session) => options.auth.currentActor(session));
  options.auth.onUserChange((userId) => streams.userChanged(userId));
  options.hub.onHearingChange((hearing) => {
    if (!hearing) streams.endAll();
  });
  app.addHook('preClose', async () => streams.endAll());
  const notListening = () => new AppError('errors.service_unavailable', { parts: 'notifications' });
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
          503: ApiErrorSchema.describe(
            'This instance does not hear the changes it would follow: try another',
          ),
        },
      },
    },
    async (request, reply) => {
      // A stream follows its session by the notifications: an instance that does not hear them
      // opens none (it is not ready either, docs/reliability.md).
      if (!options.hub.listening) throw notListening();
      const version = streams.version;
      const { ticket } = request.query;
      let session: LiveSession;
      let actor: Actor | undefined;
      if (ticket === undefined) {
        actor = await options.auth.authenticate(bearerToken(request));
        session = { userId: actor.id, sessionId: actor.sessionId };
      } else {
        session = await options.auth.redeemLiveTicket(ticket);
        actor = await options.auth.currentActor(session);
        if (!actor) throw new AppError('errors.auth_expired');
      }
      if (!options.hub.listening) throw notListening();
      streams.admit(session.userId);
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
      const stream = streams.open(session, actor, version, {
        send: (message) => response.write(`event: ${message.type}\ndata: ${JSON.stringify(message)}\n\n`),
        end: () => response.end(),
      });
      const unsubscribe = options.hub.subscribe(stream.deliver);
      const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
      const maxAge = setTimeout(() => response.end(), options.maxStreamS * 1000);
      response.on('close', () => {
        stream.closed();
        unsubscribe();
        clearInterval(keepAlive);
        clearTimeout(maxAge);
      });
    },
  );
}
