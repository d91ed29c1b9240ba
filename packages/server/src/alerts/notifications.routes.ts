import {
  AlertsOpenedAnswerSchema,
  AlertsOpenedSchema,
  NotificationPreferencesAnswerSchema,
  NotificationPreferencesSchema,
} from '@flowbox/shared';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import type { NotificationsService } from './notifications.service.ts';

const security = [{ bearer: [] }];

/** How each person is told of alerts, and the alerts they opened (issue 33, docs/alerts.md). */
export function notificationsRoutes(app: App, notifications: NotificationsService): void {
  app.get(
    '/notifications/preferences',
    {
      schema: {
        tags: ['notifications'],
        security,
        summary:
          "The caller's channels per severity (push, email: at once, if not opened, never) and quiet hours; customer and site managers and end users",
        response: { 200: NotificationPreferencesAnswerSchema, ...errorResponses },
      },
    },
    (request) => notifications.preferences(actorOf(request)),
  );
  app.put(
    '/notifications/preferences',
    {
      schema: {
        tags: ['notifications'],
        security,
        summary: "Replaces the caller's channels per severity and quiet hours",
        body: NotificationPreferencesSchema,
        response: { 200: NotificationPreferencesAnswerSchema, ...errorResponses },
      },
    },
    (request) => notifications.updatePreferences(actorOf(request), request.body),
  );
  app.post(
    '/alerts/opened',
    {
      schema: {
        tags: ['alerts'],
        security,
        summary:
          'The caller opened these alerts (a notification tapped, alerts shown): their "if not opened" channels stay quiet and the alerts do not escalate to the zone\'s managers',
        body: AlertsOpenedSchema,
        response: { 200: AlertsOpenedAnswerSchema, ...errorResponses },
      },
    },
    (request) => notifications.opened(actorOf(request), request.body),
  );
}
