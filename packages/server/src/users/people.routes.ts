import { PeopleListQuerySchema, PeopleListSchema } from '@flowbox/shared';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import type { PeopleService } from './people.service.ts';

/** `GET /v1/users/list`: the people screen's one call (issue 18); each family keeps its own calls. */
export function peopleRoutes(app: App, people: PeopleService): void {
  app.get(
    '/users/list',
    {
      schema: {
        tags: ['users'],
        summary: "Everyone with access to the caller's scope, across roles (managers only)",
        security: [{ bearer: [] }],
        querystring: PeopleListQuerySchema,
        response: { 200: PeopleListSchema, ...errorResponses },
      },
    },
    (request) => people.list(actorOf(request), request.query),
  );
}
