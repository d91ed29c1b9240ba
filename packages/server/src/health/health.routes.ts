import { ApiErrorSchema } from '@flowbox/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { migrationsApplied } from '../db/migrations.ts';
import { sendError } from '../http/error-handler.ts';
import { errorResponses, type App } from '../http/types.ts';
import { answersWithin } from './database-watch.ts';
import type { Readiness } from './readiness.ts';

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
 * `/v1/health` and `/v1/health/ready`, readiness (docs/reliability.md "Database failures"): 503
 * naming the parts that are down; `/v1/health/live`, liveness. Public, for load balancers.
 */
export function healthRoutes(app: App, readiness: Readiness, db: Db): void {
  const readinessSchema = {
    tags: ['health'],
    response: { 200: z.object({ status: z.literal('ok') }), ...errorResponses, 503: ApiErrorSchema },
  };
  const ready = async (request: FastifyRequest, reply: FastifyReply) => {
    const problems = readiness.problems();
    if (problems.database === undefined) {
      const answered = await answersWithin(db, 2_000);
      if (answered !== true) problems.database = answered;
      else {
        const migrated = await migrationsApplied(db);
        if (migrated !== true) problems.migrations = migrated;
      }
    }
    // Its listening connection is one of the database's: a database down says it all.
    if (problems.database !== undefined) delete problems.notifications;
    const parts = Object.keys(problems);
    if (parts.length === 0) return { status: 'ok' as const };
    // Health is public: each part's state in words of our own, never a driver's error text
    // (which can name hosts and addresses); the log has the whole reason.
    return sendError(
      request,
      reply,
      'errors.service_unavailable',
      { parts: parts.join(', ') },
      Object.entries(problems).map(([path, message]) => ({ path, message: publicState(message) })),
    );
  };
  app.get(
    '/health',
    {
      schema: {
        ...readinessSchema,
        summary: 'Readiness: the database and the device broker work (503 naming what does not)',
      },
    },
    ready,
  );
  app.get(
    '/health/ready',
    { schema: { ...readinessSchema, summary: 'Readiness, for load balancers: the same as /health' } },
    ready,
  );
  app.get(
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
}
