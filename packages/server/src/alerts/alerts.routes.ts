import {
  ALERT_TRANSITIONS,
  AlertCategorySchema,
  AlertCategorySettingSchema,
  AlertCategorySettingsSchema,
  AlertCategorySettingUpdateSchema,
  AlertCountQuerySchema,
  AlertCountSchema,
  AlertSchema,
  AlertsPageSchema,
  AlertsQuerySchema,
} from '@flowbox/shared';
import { z } from 'zod';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import type { AlertsService } from './alerts.service.ts';

const tags = ['alerts'];
const security = [{ bearer: [] }];
const alertParams = z.object({ alertId: z.uuid('validation.invalid') });

/** The notifications and alerts screen's calls (docs/alerts.md "API"); scope and role in the service. */
export function alertsRoutes(app: App, alerts: AlertsService): void {
  app.get(
    '/alerts/list',
    {
      schema: {
        tags,
        security,
        summary:
          'Alerts the caller may see, newest first, filtered by customer, site, building, zone, category, state and dates',
        querystring: AlertsQuerySchema,
        response: { 200: AlertsPageSchema, ...errorResponses },
      },
    },
    (request) => alerts.list(actorOf(request), request.query),
  );
  app.get(
    '/alerts/count',
    {
      schema: {
        tags,
        security,
        summary:
          'How many alerts in the caller scope are open and silenced (the header count), optionally of one customer, site, building or zone',
        querystring: AlertCountQuerySchema,
        response: { 200: AlertCountSchema, ...errorResponses },
      },
    },
    (request) => alerts.count(actorOf(request), request.query),
  );
  app.get(
    '/alerts/settings/list',
    {
      schema: {
        tags,
        security,
        summary: 'The alert settings of every category (spec §3): subject, enabled, premium-only, email flag',
        response: { 200: AlertCategorySettingsSchema, ...errorResponses },
      },
    },
    async () => ({ items: await alerts.settings() }),
  );
  app.put(
    '/alerts/settings/:category/update',
    {
      schema: {
        tags,
        security,
        summary: 'Change one category setting (provider managers)',
        params: z.object({ category: AlertCategorySchema }),
        body: AlertCategorySettingUpdateSchema,
        response: { 200: AlertCategorySettingSchema, ...errorResponses },
      },
    },
    (request) => alerts.updateSetting(actorOf(request), request.params.category, request.body),
  );
  app.get(
    '/alerts/:alertId/info',
    {
      schema: { tags, security, params: alertParams, response: { 200: AlertSchema, ...errorResponses } },
    },
    (request) => alerts.info(actorOf(request), request.params.alertId),
  );
  for (const transition of ALERT_TRANSITIONS) {
    app.post(
      `/alerts/:alertId/${transition}`,
      {
        schema: {
          tags,
          security,
          summary: `${transition[0]!.toUpperCase()}${transition.slice(1)} an alert (spec §4)`,
          params: alertParams,
          body: z.object({}).nullish(),
          response: { 200: AlertSchema, ...errorResponses },
        },
      },
      (request) => alerts.transition(actorOf(request), request.params.alertId, transition),
    );
  }
}
