import { LeakAnalyticsSchema } from '@flowbox/shared';
import { buildingParams, zoneParams } from '../http/params.ts';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import type { LeaksService } from './leaks.service.ts';

const security = [{ bearer: [] }];
const buildingPrefix = '/customers/:customerId/sites/:siteId/buildings/:buildingId';

/** Leak analytics of a zone and of a building (issue 29, docs/automation.md "Leak analytics"). */
export function leaksRoutes(app: App, leaks: LeaksService): void {
  const tags = ['consumption'];
  app.get(
    `${buildingPrefix}/zones/:zoneId/leaks`,
    {
      schema: {
        tags,
        security,
        summary: "A zone's continuous flow, night flows against its occupants' allowance, and estimated loss",
        params: zoneParams,
        response: { 200: LeakAnalyticsSchema, ...errorResponses },
      },
    },
    (request) => leaks.zone(actorOf(request), request.params),
  );
  app.get(
    `${buildingPrefix}/leaks`,
    {
      schema: {
        tags,
        security,
        summary:
          "A building's continuous flow, night flows against its occupants' allowance, and estimated loss",
        params: buildingParams,
        response: { 200: LeakAnalyticsSchema, ...errorResponses },
      },
    },
    (request) => leaks.building(actorOf(request), request.params),
  );
}
