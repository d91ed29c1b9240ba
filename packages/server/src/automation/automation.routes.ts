import {
  AutomaticClosingExitSchema,
  AutomaticClosingSettingsSchema,
  AutomationSchema,
  AwayModeInputSchema,
  AwayModeSchema,
  BacktestRequestSchema,
  BacktestSchema,
} from '@flowbox/shared';
import { z } from 'zod';
import { zoneParams } from '../http/params.ts';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import type { AutomationService } from './automation.service.ts';
import { BACKTEST_ROUTE_SUFFIX, EXIT_ROUTE_SUFFIX } from './lock.ts';

const security = [{ bearer: [] }];
const zonePrefix = '/customers/:customerId/sites/:siteId/buildings/:buildingId/zones/:zoneId';
const tags = ['automatic closing'];
const awayTags = ['away mode'];
/** Calls that take no body: an empty one (or none) is accepted. */
const NoBody = z.object({}).nullish();

/** A zone's automatic closing (spec §3, §4, §5; docs/automation.md). */
export function automationRoutes(app: App, automation: AutomationService): void {
  app.get(
    `${zonePrefix}/automation/info`,
    {
      schema: {
        tags,
        security,
        summary: "The zone's margins, whether automatic closing holds it, and the flow event under way",
        params: zoneParams,
        response: { 200: AutomationSchema, ...errorResponses },
      },
    },
    (request) => automation.info(actorOf(request), request.params),
  );
  app.put(
    `${zonePrefix}/automation/update`,
    {
      schema: {
        tags,
        security,
        summary: 'Save the margins; the volume margin is in the building unit',
        params: zoneParams,
        body: AutomaticClosingSettingsSchema,
        response: { 200: AutomationSchema, ...errorResponses },
      },
    },
    (request) => automation.updateSettings(actorOf(request), request.params, request.body),
  );
  app.post(
    `${zonePrefix}${EXIT_ROUTE_SUFFIX}`,
    {
      schema: {
        tags,
        security,
        summary: "Exit automatic closing, the zone's name typed (irreversible: detection rests for an hour)",
        params: zoneParams,
        body: AutomaticClosingExitSchema,
        response: { 200: AutomationSchema, ...errorResponses },
      },
    },
    (request) => automation.exit(actorOf(request), request.params, request.body.confirm_name),
  );
  app.post(
    `${zonePrefix}${BACKTEST_ROUTE_SUFFIX}`,
    {
      schema: {
        tags,
        security,
        summary:
          'What proposed margins, profile or opening hours would have done over the last days, beside the settings in force (changes nothing)',
        params: zoneParams,
        body: BacktestRequestSchema,
        response: { 200: BacktestSchema, ...errorResponses },
      },
    },
    (request) => automation.backtest(actorOf(request), request.params, request.body),
  );

  // Away mode (issue 33, docs/automation.md "Away mode"): the zone's end users and managers.
  app.get(
    `${zonePrefix}/away_mode/info`,
    {
      schema: {
        tags: awayTags,
        security,
        summary:
          "The zone's away mode: its period in the building's time zone, and whether it closes the water",
        params: zoneParams,
        response: { 200: AwayModeSchema, ...errorResponses },
      },
    },
    (request) => automation.awayMode(actorOf(request), request.params),
  );
  app.put(
    `${zonePrefix}/away_mode/update`,
    {
      schema: {
        tags: awayTags,
        security,
        summary:
          'Set the zone away from a local date and time until another: any flow then alerts, and closes the water with close_on_flow',
        params: zoneParams,
        body: AwayModeInputSchema,
        response: { 200: AwayModeSchema, ...errorResponses },
      },
    },
    (request) => automation.setAwayMode(actorOf(request), request.params, request.body),
  );
  app.post(
    `${zonePrefix}/away_mode/clear`,
    {
      schema: {
        tags: awayTags,
        security,
        summary: "Switch the zone's away mode off now",
        params: zoneParams,
        body: NoBody,
        response: { 200: AwayModeSchema, ...errorResponses },
      },
    },
    (request) => automation.clearAwayMode(actorOf(request), request.params),
  );
}
