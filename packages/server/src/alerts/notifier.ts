import { CRITICAL_ALERT_CATEGORIES, defaultAlertsSettings, type AlertCategory } from '@flowbox/shared';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import { KickedPass } from '../jobs/kicked-pass.ts';
import type { EmailMessage } from '../mail/mailer.ts';
import type { NewPushMessage, PushDelivery } from '../push/push-delivery.service.ts';
import { categorySetting } from './alert-settings.ts';
import { alertEmail } from './alert-email.ts';
import { ALERT_PUSH, alertPush } from './alert-push.ts';
import { sweepAlerts, type SweepOptions } from './raisers.ts';
import {
  claimDueAlerts,
  claimPendingPushAlerts,
  findAlertZone,
  updateAlert,
  type AlertRow,
  type AlertZone,
} from './alerts.repo.ts';
import { recipientsOf, type Recipient } from './recipients.repo.ts';

export type NotifierOptions = SweepOptions & {
  escalationIntervalMs: number;
  /** Alerts claimed per transaction. */
  batchSize?: number;
};

/** What the notifier needs of Web Push (push/push-delivery.service.ts): its queue. */
export type AlertPushes = Pick<PushDelivery, 'enqueue' | 'kick'>;

type Logger = { warn: (obj: object, msg: string) => void };

/**
 * The alert email job (DESIGN.md §2 jobs, docs/alerts.md "Emails"): alerts whose `notify_due_at`
 * has come are claimed with SKIP LOCKED, so with several instances each is emailed by one; the
 * claim moves the due time on (critical: one escalation interval later; otherwise never again) in
 * the same transaction, which also queues the emails (mail/mailer.ts): they go out once it has
 * committed, and are retried by the mailer, not by claiming the alert again.
 *
 * Pushed alerts (docs/push.md) are claimed the same way from `alert_pushes`, as soon as the
 * notification of their opening is heard (`kickPushes`) and on each pass of the job; their
 * messages are queued for the same recipients as the emails, and sent by the push queue.
 */
export class AlertNotifier {
  private readonly pushPasses: KickedPass | undefined;

  constructor(
    private readonly ctx: Context,
    private readonly options: NotifierOptions,
    private readonly pushes?: AlertPushes,
    log: Logger = { warn: () => undefined },
  ) {
    this.pushPasses = pushes && new KickedPass(() => this.pushDue(), log, 'alert push pass failed');
  }

  /** One pass of the alert job: the sweep over stored state, then the due emails and pushes. */
  async runPass(): Promise<void> {
    await sweepAlerts(this.ctx, this.options);
    await this.runDue();
    await this.pushDue();
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

  /** An alert to push was committed: its messages are queued and sent now. Never throws. */
  kickPushes(): void {
    this.pushPasses?.kick();
  }

  async idle(): Promise<void> {
    await this.pushPasses?.idle();
  }

  /** Queues the push messages of every pending alert; answers how many alerts were taken. */
  async pushDue(): Promise<number> {
    const pushes = this.pushes;
    if (!pushes) return 0;
    let total = 0;
    for (;;) {
      const { alerts, queued } = await this.ctx.db.transaction(async (tx) => {
        const claimed = await claimPendingPushAlerts(tx, this.options.batchSize ?? 20);
        const messages: NewPushMessage[] = [];
        for (const alert of claimed) messages.push(...(await this.pushesFor(tx, alert)));
        return { alerts: claimed.length, queued: await pushes.enqueue(tx, messages) };
      });
      if (queued > 0) pushes.kick();
      total += alerts;
      if (alerts < (this.options.batchSize ?? 20)) return total;
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
    const told = await this.told(tx, alert);
    if (!told) return [];
    return told.recipients.map((r) => {
      const template = alertEmail(r.language, {
        firstname: r.firstname,
        subject: told.subjects[r.language],
        alert,
        zone: told.zone,
        reminder: alert.emailRounds > 0,
        link: this.linkOf(alert),
      });
      return { to: r.email, ...template, kind: 'alert' };
    });
  }

  /**
   * One message for each user who would be emailed the alert; the push queue sends it to each of
   * their browsers, unless they snoozed its zone and category (docs/push.md "Snooze").
   */
  private async pushesFor(tx: Db, alert: AlertRow): Promise<NewPushMessage[]> {
    const told = await this.told(tx, alert);
    if (!told) return [];
    return told.recipients.map((r) => ({
      userId: r.id,
      payload: JSON.stringify(alertPush(r.language, { alert, zone: told.zone, link: this.linkOf(alert) })),
      urgency: ALERT_PUSH.urgency,
      ttlS: ALERT_PUSH.ttlS,
      alertId: alert.id,
      readingAt: alert.openedAt,
      snoozable: { zoneId: alert.zoneId, category: alert.category },
    }));
  }

  /**
   * Who is told of an alert, and where it is: none when its category is not emailed (spec §3 alert
   * settings) or its zone is gone; else the recipients (recipients.repo.ts) who want it here.
   */
  private async told(
    tx: Db,
    alert: AlertRow,
  ): Promise<
    { recipients: Recipient[]; zone: AlertZone; subjects: Record<Recipient['language'], string> } | undefined
  > {
    const setting = await categorySetting(tx, alert.category);
    if (!setting.email) return undefined;
    const zone = await findAlertZone(tx, alert.zoneId);
    if (!zone) return undefined;
    const recipients = (await recipientsOf(tx, alert)).filter((r) =>
      wantsEmail(r, alert.category, alert.zoneId),
    );
    return { recipients, zone, subjects: setting.subject };
  }

  private linkOf(alert: AlertRow): string {
    return `${this.ctx.config.publicUrl}/notifications?zone_id=${alert.zoneId}`;
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
