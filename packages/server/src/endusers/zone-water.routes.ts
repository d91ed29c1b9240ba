import { ZoneWaterSchema } from '@flowbox/shared';
import { zoneParams } from '../http/params.ts';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import type { ZoneWaterService } from './zone-water.service.ts';

const ZONE = '/customers/:customerId/sites/:siteId/buildings/:buildingId/zones/:zoneId';

/** A zone's water for its home page (issue 33, docs/permissions.md "An end user's zone home"). */
export function zoneWaterRoutes(app: App, service: ZoneWaterService): void {
  app.get(
    `${ZONE}/water`,
    {
      schema: {
        tags: ['zones'],
        security: [{ bearer: [] }],
        summary:
          "The zone's water: on or off, and when off since when and by whom (a person, automatic closing, a schedule, away mode, by hand on the device)",
        params: zoneParams,
        response: { 200: ZoneWaterSchema, ...errorResponses },
      },
    },
    (request) => service.water(actorOf(request), request.params),
  );
}
