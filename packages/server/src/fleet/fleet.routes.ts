import { FleetFilterSchema, FleetPageSchema, FleetQuerySchema } from '@flowbox/shared';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { requestLanguage } from '../http/language.ts';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import type { FleetService } from './fleet.service.ts';

const tags = ['fleet'];
const security = [{ bearer: [] }];

/** The fleet at a glance (issue #18, docs/fleet.md); role and scope in the service. */
export function fleetRoutes(app: App, fleet: FleetService): void {
  app.get(
    '/fleet/list',
    {
      schema: {
        tags,
        security,
        summary:
          'Flowboxes the caller may see, filtered (offline, closed, locked, leaking, firmware, model), searched by serial prefix, sorted, a keyset page at a time',
        querystring: FleetQuerySchema,
        response: { 200: FleetPageSchema, ...errorResponses },
      },
    },
    (request) => fleet.list(actorOf(request), request.query),
  );
  app.get(
    '/fleet/export.csv',
    {
      schema: {
        tags,
        security,
        summary: 'The same filtered and sorted list as CSV (at most 100,000 lines), streamed',
        querystring: FleetFilterSchema,
        response: {
          200: {
            description:
              'UTF-8 CSV with a header line (column names in the reader’s language), as an attachment',
            content: { 'text/csv': { schema: z.string() } },
          },
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const file = await fleet.exportCsv(actorOf(request), request.query, requestLanguage(request));
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .send(Readable.from(file.lines) as unknown as string);
    },
  );
}
