import { CRITICAL_ALERT_CATEGORIES, defaultAlertsSettings, type AlertCategory } from '@flowbox/shared';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import type { EmailMessage } from '../mail/mailer.ts';
import { categorySetting } from './alert-settings.ts';
import { alertEmail } from './alert-email.ts';
import { sweepAlerts, type SweepOptions } from './raisers.ts';
import { claimDueAlerts, findAlertZone, updateAlert, type AlertRow } from './alerts.repo.ts';
import { recipientsOf, type Recipient } from './recipients.repo.ts';

export type NotifierOptions = SweepOptions & {
  escalationIntervalMs: number;
  /** Alerts claimed per transaction. */
  batchSize?: number;
};

/**
 * The alert email job (DESIGN.md §2 jobs, docs/alerts.md "Emails"): alerts whose `notify_due_at`
 * has come are claimed with SKIP LOCKED, so with several instances each is emailed by one; the
 * claim moves the due time on (critical: one escalation interval later; otherwise never again) in
 * the same transaction, which also queues the emails (mail/mailer.ts): they go out once it has
 * committed, and are retried by the mailer, not by claiming the alert again.
 */
export class AlertNotifier {
  constructor(
    private readonly ctx: Context,
    private readonly options: NotifierOptions,
  ) {}

  /** One pass of the alert job: the sweep over stored state, then the due emails. */
  async runPass(): Promise<void> {
    await sweepAlerts(this.ctx, this.options);
    await this.runDue();
  }

  /** Emails every due alert; answers how many alerts were emailed. */
  async runDue(): Promise<number> {
    let total = 0;
    for (;;) {
      const emailed = await this.claimBatch();
      if (emailed > 0) this.ctx.mailer.kick();
      total += emailed;
      if (emailed < (this.options.batchSize ?? 20)) return total;
    }
  }

  /** Claims due alerts and queues their emails in one transaction: both happen, or neither. */
  private claimBatch(): Promise<number> {
    const now = this.ctx.now();
    return this.ctx.db.transaction(async (tx) => {
      const due = await claimDueAlerts(tx, now, this.options.batchSize ?? 20);
      const messages: EmailMessage[] = [];
      for (const alert of due) {
        messages.push(...(await this.messagesFor(tx, alert)));
        const critical = CRITICAL_ALERT_CATEGORIES.includes(alert.category);
        await updateAlert(tx, alert.id, {
          emailedAt: alert.emailedAt ?? now,
          emailRounds: alert.emailRounds + 1,
          notifyDueAt: critical ? new Date(now.getTime() + this.options.escalationIntervalMs) : null,
        });
      }
      await this.ctx.mailer.enqueue(tx, messages);
      return due.length;
    });
  }

  private async messagesFor(tx: Db, alert: AlertRow): Promise<EmailMessage[]> {
    const setting = await categorySetting(tx, alert.category);
    if (!setting.email) return [];
    const zone = await findAlertZone(tx, alert.zoneId);
    if (!zone) return [];
    const recipients = (await recipientsOf(tx, alert)).filter((r) =>
      wantsEmail(r, alert.category, alert.zoneId),
    );
    return recipients.map((r) => {
      const template = alertEmail(r.language, {
        firstname: r.firstname,
        subject: setting.subject[r.language],
        alert,
        zone,
        reminder: alert.emailRounds > 0,
        link: `${this.ctx.config.publicUrl}/notifications?zone_id=${alert.zoneId}`,
      });
      return { to: r.email, ...template, kind: 'alert' };
    });
  }
}

/** The zone's override (alerts_instance_settings) wins over the user's category setting. */
export function wantsEmail(
  user: Pick<Recipient, 'alertsSettings' | 'alertsInstanceSettings'>,
  category: AlertCategory,
  zoneId: string,
): boolean {
  const override = user.alertsInstanceSettings[zoneId]?.[category];
  if (override) return override.email;
  return (user.alertsSettings[category] ?? defaultAlertsSettings()[category]).email;
}
