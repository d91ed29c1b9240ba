import {
  ANSWERABLE_ALERT_CATEGORIES,
  type Alert,
  type AlertAnswerInput,
  type AlertAnswerSummary,
  type AlertAnswerSummaryQuery,
} from '@flowbox/shared';
import {
  answersShownTo,
  requireAlertAnswer,
  requireSiteManagerRead,
  unknownTo,
  type Actor,
} from '../access/access.ts';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import { AppError, notFound } from '../errors.ts';
import { recordChange } from '../events/index.ts';
import { notifyLive } from '../live/index.ts';
import { answersOfAlerts, saveAlertAnswer, zoneAnswerSummary } from './alert-answers.repo.ts';
import { recordAlertOpens } from './alert-opens.repo.ts';
import { findAlertRow, findAlertZone, toApiAlert } from './alerts.repo.ts';

/**
 * "Was this you?" (issue 33, docs/alerts.md "Was this you?"): on a leak or abnormal-use alert, each
 * of the zone's end users and managers says whether the water was theirs; a new answer replaces
 * their own. The answers show on the alert (a manager reads everyone's), are logged, and are
 * summed per zone over the last ALERT_ANSWER_SUMMARY_DAYS days beside the backtest's suggestion.
 */
export class AlertAnswersService {
  constructor(private readonly ctx: Context) {}

  async answer(actor: Actor, alertId: string, input: AlertAnswerInput): Promise<Alert> {
    const now = this.ctx.now();
    return this.ctx.db.transaction(async (tx) => {
      const row = await findAlertRow(tx, alertId);
      if (!row) throw unknownTo(actor);
      requireAlertAnswer(actor, row);
      if (!ANSWERABLE_ALERT_CATEGORIES.includes(row.category))
        throw new AppError('errors.alert_not_answerable');
      const zone = await findAlertZone(tx, row.zoneId);
      if (!zone) throw notFound();
      await saveAlertAnswer(tx, {
        alertId: row.id,
        userId: actor.id,
        userName: actor.name,
        zoneId: row.zoneId,
        answer: input.answer,
        answeredAt: now,
      });
      // Answering it is opening it (docs/alerts.md "Escalation").
      await recordAlertOpens(tx, actor.id, [row.id], now);
      await recordChange(tx, now, actor, {
        action: 'alert_answered',
        object: 'alert',
        objectId: row.id,
        // As the alert's other lines: the zone's name, the category first in changed fields.
        objectLabel: zone.zoneName,
        scope: zone,
        changedFields: [row.category, input.answer],
      });
      const alert = toApiAlert(row, zone);
      // The zone's managers' screens refresh their lists (AlertsLiveSync), the answer with them.
      await notifyLive(tx, {
        type: 'alert',
        alert,
        customer_id: alert.customer_id,
        site_id: alert.site_id,
        zone_id: alert.zone_id,
      });
      return (await withAnswers(tx, actor, [alert]))[0]!;
    });
  }

  /** A zone's answers over the last days: its managers read them (the backtest's evidence). */
  async summary(actor: Actor, query: AlertAnswerSummaryQuery): Promise<AlertAnswerSummary> {
    const zone = await findAlertZone(this.ctx.db, query.zone_id);
    if (!zone) throw unknownTo(actor);
    requireSiteManagerRead(actor, zone.customerId, zone.siteId);
    return zoneAnswerSummary(this.ctx.db, zone.zoneId, this.ctx.now());
  }
}

/** The alerts with the answers their reader may see (a manager everyone's, an end user its own). */
export async function withAnswers(db: Db, actor: Actor, alerts: Alert[]): Promise<Alert[]> {
  const answerable = (a: Alert) => ANSWERABLE_ALERT_CATEGORIES.includes(a.category);
  const answers = await answersOfAlerts(
    db,
    alerts.filter(answerable).map((a) => a.id),
    answersShownTo(actor),
  );
  return alerts.map((a) => (answerable(a) ? { ...a, answers: answers.get(a.id) ?? [] } : a));
}
