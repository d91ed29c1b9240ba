import { WaterBalanceQuerySchema, WaterBalanceSchema, WaterBalanceSettingsSchema } from '@flowbox/shared';
import { buildingParams } from '../http/params.ts';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import type { WaterBalanceService } from './water-balance.service.ts';

const security = [{ bearer: [] }];
const buildingPrefix = '/customers/:customerId/sites/:siteId/buildings/:buildingId';

/** A building's water balance and its settings (docs/automation.md "Building water balance"). */
export function waterBalanceRoutes(app: App, balance: WaterBalanceService): void {
  const tags = ['water balance'];
  app.get(
    `${buildingPrefix}/water_balance`,
    {
      schema: {
        tags,
        security,
        summary: 'Main supply against the sum of the zones, per hour or per night (at most 31 days)',
        params: buildingParams,
        querystring: WaterBalanceQuerySchema,
        response: { 200: WaterBalanceSchema, ...errorResponses },
      },
    },
    (request) => balance.balance(actorOf(request), request.params, request.query),
  );
  app.put(
    `${buildingPrefix}/water_balance/settings`,
    {
      schema: {
        tags,
        security,
        summary: "Name the building's main supply zone and the unaccounted-water alert's thresholds",
        params: buildingParams,
        body: WaterBalanceSettingsSchema,
        response: { 200: WaterBalanceSettingsSchema, ...errorResponses },
      },
    },
    (request) => balance.updateSettings(actorOf(request), request.params, request.body),
  );
}
