import {
  notificationPreferencesOf,
  UNOPENED_ESCALATION_MINUTES,
  type AlertsOpenedInput,
  type NotificationPreferences,
  type NotificationPreferencesAnswer,
} from '@flowbox/shared';
import { notifiedUserOf, requireZoneRead, unknownTo, type Actor } from '../access/access.ts';
import type { Context } from '../context.ts';
import { changedFieldsOf, recordChange } from '../events/index.ts';
import { alertsToOpen, recordAlertOpens } from './alert-opens.repo.ts';
import { savePreferences, storedPreferences } from './notification-preferences.repo.ts';

/**
 * How each person is told of alerts (issue 33, docs/alerts.md "How each person is told" and
 * "Escalation"): their own channels per severity and quiet hours, and the alerts they opened.
 */
export class NotificationsService {
  constructor(private readonly ctx: Context) {}

  async preferences(actor: Actor): Promise<NotificationPreferencesAnswer> {
    const userId = notifiedUserOf(actor);
    return answerOf(notificationPreferencesOf(await storedPreferences(this.ctx.db, userId)));
  }

  /** Replaces the caller's preferences whole; logged on the user, as a profile change. */
  async updatePreferences(
    actor: Actor,
    input: NotificationPreferences,
  ): Promise<NotificationPreferencesAnswer> {
    const userId = notifiedUserOf(actor);
    const now = this.ctx.now();
    return this.ctx.db.transaction(async (tx) => {
      await savePreferences(tx, userId, input, now);
      await recordChange(tx, now, actor, {
        action: 'updated',
        object: 'user',
        objectId: userId,
        objectLabel: actor.name,
        scope: { customerId: actor.customerId },
        changedFields: changedFieldsOf({ notification_preferences: input }),
      });
      return answerOf(input);
    });
  }

  /**
   * The caller opened these alerts (the notification tapped, the alert shown in the app): their
   * channels kept "if not opened" stay quiet, and the alerts do not escalate to the zone's managers.
   * Every one must be an alert the caller reads; one that is not refuses them all.
   */
  async opened(actor: Actor, input: AlertsOpenedInput): Promise<{ opened: number }> {
    const ids = [...new Set(input.alert_ids.map((id) => id.toLowerCase()))];
    const found = await alertsToOpen(this.ctx.db, ids);
    if (found.length < ids.length) throw unknownTo(actor);
    for (const alert of found) requireZoneRead(actor, { ...alert, zoneId: alert.zoneId });
    await recordAlertOpens(this.ctx.db, actor.id, ids, this.ctx.now());
    return { opened: ids.length };
  }
}

function answerOf(preferences: NotificationPreferences): NotificationPreferencesAnswer {
  return { ...preferences, escalation_minutes: UNOPENED_ESCALATION_MINUTES };
}
