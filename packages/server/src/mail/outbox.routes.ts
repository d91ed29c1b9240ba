import { ListQuerySchema, listOf, OutboxEmailSchema } from '@flowbox/shared';
import { requireInstanceRead } from '../access/access.ts';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import type { Mailer } from './mailer.ts';

/** The emails the instance sent, for its provider managers (the embedded set-up has no mailbox). */
export function outboxRoutes(app: App, mailer: Mailer): void {
  app.get(
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
      requireInstanceRead(actorOf(request));
      return mailer.outbox(request.query);
    },
  );
}
