import {
  ALERT_ANSWER_SUMMARY_DAYS,
  type AlertAnswer,
  type AlertAnswerSummary,
  type AlertAnswerValue,
} from '@flowbox/shared';
import { and, count, countDistinct, desc, eq, gte, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { alertAnswers } from '../db/schema.ts';

export type AlertAnswerRow = typeof alertAnswers.$inferSelect;

/** A person's answer: one per person and alert, a new answer replacing theirs (docs/alerts.md). */
export async function saveAlertAnswer(db: Db, row: AlertAnswerRow): Promise<AlertAnswerRow> {
  const [saved] = await db
    .insert(alertAnswers)
    .values(row)
    .onConflictDoUpdate({
      target: [alertAnswers.alertId, alertAnswers.userId],
      set: { answer: row.answer, answeredAt: row.answeredAt, userName: row.userName },
    })
    .returning();
  return saved!;
}

/**
 * The answers of these alerts, latest first, by alert: everyone's, or one person's (`userId`).
 * One query for a page of alerts.
 */
export async function answersOfAlerts(
  db: Db,
  alertIds: readonly string[],
  userId: 'all' | string,
): Promise<Map<string, AlertAnswer[]>> {
  const byAlert = new Map<string, AlertAnswer[]>();
  if (alertIds.length === 0) return byAlert;
  const rows = await db
    .select()
    .from(alertAnswers)
    .where(
      and(
        inArray(alertAnswers.alertId, [...alertIds]),
        userId === 'all' ? undefined : eq(alertAnswers.userId, userId),
      ),
    )
    .orderBy(desc(alertAnswers.answeredAt));
  for (const row of rows) {
    const list = byAlert.get(row.alertId) ?? [];
    list.push(toApiAnswer(row));
    byAlert.set(row.alertId, list);
  }
  return byAlert;
}

/** A zone's answers since a time: how many people said each, and how many alerts were answered. */
export async function sumZoneAnswers(
  db: Db,
  zoneId: string,
  since: Date,
): Promise<{ me: number; notMe: number; alerts: number }> {
  const where = and(eq(alertAnswers.zoneId, zoneId), gte(alertAnswers.answeredAt, since));
  const rows = await db
    .select({ answer: alertAnswers.answer, n: count() })
    .from(alertAnswers)
    .where(where)
    .groupBy(alertAnswers.answer);
  const [answered] = await db
    .select({ n: countDistinct(alertAnswers.alertId) })
    .from(alertAnswers)
    .where(where);
  const of = (answer: AlertAnswerValue) => rows.find((r) => r.answer === answer)?.n ?? 0;
  return { me: of('me'), notMe: of('not_me'), alerts: answered?.n ?? 0 };
}

const DAY_MS = 86_400_000;

/** A zone's sums of "me" and "not me" over the last ALERT_ANSWER_SUMMARY_DAYS days before `now`. */
export async function zoneAnswerSummary(db: Db, zoneId: string, now: Date): Promise<AlertAnswerSummary> {
  const since = new Date(now.getTime() - ALERT_ANSWER_SUMMARY_DAYS * DAY_MS);
  const sums = await sumZoneAnswers(db, zoneId, since);
  return {
    zone_id: zoneId,
    since: since.toISOString(),
    days: ALERT_ANSWER_SUMMARY_DAYS,
    me: sums.me,
    not_me: sums.notMe,
    alerts_answered: sums.alerts,
  };
}

export function toApiAnswer(row: AlertAnswerRow): AlertAnswer {
  return {
    user_id: row.userId,
    user_name: row.userName,
    answer: row.answer,
    answered_at: row.answeredAt.toISOString(),
  };
}
