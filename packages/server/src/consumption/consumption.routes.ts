import {
  ConsumptionDetailsSchema,
  ConsumptionExportQuerySchema,
  ConsumptionQuerySchema,
  ConsumptionSeriesSchema,
  ConsumptionWindowQuerySchema,
  DashboardTodaySchema,
  ZonePriceTiersSchema,
  ZonesComparisonSchema,
} from '@flowbox/shared';
import { z } from 'zod';
import { buildingParams, customerParams, siteParams, zoneParams } from '../http/params.ts';
import { requestLanguage } from '../http/language.ts';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import type { ConsumptionService, ScopePath } from './consumption.service.ts';

const security = [{ bearer: [] }];
const customerPrefix = '/customers/:customerId';
const sitePrefix = `${customerPrefix}/sites/:siteId`;
const buildingPrefix = `${sitePrefix}/buildings/:buildingId`;
const zonePrefix = `${buildingPrefix}/zones/:zoneId`;

/** The four scopes a series and an export exist for, with their path and how to read its ids. */
const scopes = [
  { name: 'zone', prefix: zonePrefix, params: zoneParams },
  { name: 'building', prefix: buildingPrefix, params: buildingParams },
  { name: 'site', prefix: sitePrefix, params: siteParams },
  { name: 'customer', prefix: customerPrefix, params: customerParams },
] as const;

/** Consumption graphs, zone comparisons, premium details, CSV export, today's figures (issue #6). */
export function consumptionRoutes(app: App, consumption: ConsumptionService): void {
  const tags = ['consumption'];
  for (const scope of scopes) {
    const target = (params: unknown) => ({ scope: scope.name, path: params }) as ScopePath;
    app.get(
      `${scope.prefix}/consumption`,
      {
        schema: {
          tags,
          security,
          summary: `Consumption of a ${scope.name} over a graph window, with the previous period`,
          params: scope.params,
          querystring: ConsumptionQuerySchema,
          response: { 200: ConsumptionSeriesSchema, ...errorResponses },
        },
      },
      (request) => consumption.series(actorOf(request), target(request.params), request.query),
    );
    app.get(
      `${scope.prefix}/consumption/export.csv`,
      {
        schema: {
          tags,
          security,
          summary: `CSV export of a ${scope.name}'s consumption, per zone and bucket or day`,
          params: scope.params,
          querystring: ConsumptionExportQuerySchema,
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
        const file = await consumption.exportCsv(
          actorOf(request),
          target(request.params),
          request.query,
          requestLanguage(request),
        );
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${file.fileName}"`)
          .send(file.body);
      },
    );
  }
  for (const scope of [scopes[1], scopes[2]]) {
    app.get(
      `${scope.prefix}/consumption/zones`,
      {
        schema: {
          tags,
          security,
          summary: `Zones of a ${scope.name} compared over a window, largest first`,
          params: scope.params,
          querystring: ConsumptionWindowQuerySchema,
          response: { 200: ZonesComparisonSchema, ...errorResponses },
        },
      },
      (request) =>
        consumption.zones(
          actorOf(request),
          { scope: scope.name, path: request.params } as ScopePath,
          request.query.window,
        ),
    );
  }
  app.get(
    `${zonePrefix}/consumption/details`,
    {
      schema: {
        tags,
        security,
        summary: "A premium zone's consumption per flowbox and its climate (refused for basic zones)",
        params: zoneParams,
        querystring: ConsumptionWindowQuerySchema,
        response: { 200: ConsumptionDetailsSchema, ...errorResponses },
      },
    },
    (request) => consumption.details(actorOf(request), request.params, request.query.window),
  );
  app.get(
    `${zonePrefix}/consumption/price_tiers`,
    {
      schema: {
        tags,
        security,
        summary:
          "The price tiers that bill the zone now, its billing period's volume so far and the tier reached",
        params: zoneParams,
        response: { 200: ZonePriceTiersSchema, ...errorResponses },
      },
    },
    (request) => consumption.priceTiers(actorOf(request), request.params),
  );
  app.get(
    '/dashboard/today',
    {
      schema: {
        tags,
        security,
        summary: "Today's consumption, cost, devices and top zones over what the caller may see",
        response: { 200: DashboardTodaySchema, ...errorResponses },
      },
    },
    (request) => consumption.today(actorOf(request)),
  );
}
