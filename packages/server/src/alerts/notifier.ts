import {
  alertSeverity,
  channelPlan,
  CRITICAL_ALERT_CATEGORIES,
  defaultAlertsSettings,
  notificationPreferencesOf,
  quietUntil,
  UNOPENED_ESCALATION_MINUTES,
  type AlertCategory,
  type NotificationChannel,
} from '@flowbox/shared';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import { KickedPass } from '../jobs/kicked-pass.ts';
import type { EmailMessage } from '../mail/mailer.ts';
import type { NewPushMessage, PushDelivery } from '../push/push-delivery.service.ts';
import { categorySetting } from './alert-settings.ts';
import { recordEvent } from '../events/index.ts';
import { alertEmail, type AlertRound } from './alert-email.ts';
import { openersOf } from './alert-opens.repo.ts';
import { ALERT_PUSH, alertPush } from './alert-push.ts';
import { sweepAlerts, type SweepOptions } from './raisers.ts';
import {
  claimDueAlerts,
  claimDueEscalations,
  claimPendingPushAlerts,
  findAlertZone,
  updateAlert,
  type AlertRow,
  type AlertZone,
} from './alerts.repo.ts';
import { recipientsOf, zoneManagersOf, type Recipient } from './recipients.repo.ts';

export type NotifierOptions = SweepOptions & {
  escalationIntervalMs: number;
  /** Alerts claimed per transaction. */
  batchSize?: number;
};

/** What the notifier needs of Web Push (push/push-delivery.service.ts): its queue, and who it reaches. */
export type AlertPushes = Pick<PushDelivery, 'enqueue' | 'kick' | 'reachable'>;

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

  /** One pass of the alert job: the sweep over stored state, then the due emails, pushes and escalations. */
  async runPass(): Promise<void> {
    await sweepAlerts(this.ctx, this.options);
    await this.runDue();
    await this.pushDue();
    await this.escalateDue();
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

  /**
   * Escalates every critical alert whose time has come (docs/alerts.md "Escalation"): first the
   * channels people keep for an alert they have not opened, then, when nobody has opened it, the
   * zone's managers. Claimed with SKIP LOCKED and moved on in the transaction that queues the
   * messages; answers how many alerts were escalated.
   */
  async escalateDue(): Promise<number> {
    let total = 0;
    for (;;) {
      const now = this.ctx.now();
      const { alerts, emails, pushes } = await this.ctx.db.transaction(async (tx) => {
        const due = await claimDueEscalations(tx, now, this.options.batchSize ?? 20);
        const counts = { alerts: due.length, emails: 0, pushes: 0 };
        for (const alert of due) {
          const { emails, pushes } = await this.escalate(tx, alert, now);
          await this.ctx.mailer.enqueue(tx, emails);
          counts.emails += emails.length;
          counts.pushes += this.pushes ? await this.pushes.enqueue(tx, pushes) : 0;
        }
        return counts;
      });
      if (emails > 0) this.ctx.mailer.kick();
      if (pushes > 0) this.pushes?.kick();
      total += alerts;
      if (alerts < (this.options.batchSize ?? 20)) return total;
    }
  }

  /** One step of an alert's escalation, its messages, and the next step's time. */
  private async escalate(
    tx: Db,
    alert: AlertRow,
    now: Date,
  ): Promise<{ emails: EmailMessage[]; pushes: NewPushMessage[] }> {
    const step = UNOPENED_ESCALATION_MINUTES * 60_000;
    const told = await this.told(tx, alert, now);
    const emails: EmailMessage[] = [];
    const pushes: NewPushMessage[] = [];
    const last = !told || alert.escalationStage > 0;
    await updateAlert(tx, alert.id, {
      escalationStage: last ? 2 : 1,
      escalateAt: last ? null : new Date(Math.max(now.getTime(), alert.openedAt.getTime() + step) + step),
    });
    // A category whose notifications the service turned off, or a zone gone: nobody is told.
    if (!told) return { emails, pushes };
    const opened = await openersOf(tx, alert.id);
    if (alert.escalationStage === 0) {
      // The channels kept "if not opened", of the people who have not opened it.
      for (const person of told.people) {
        if (opened.has(person.recipient.id)) continue;
        if (person.plan.unopened.includes('email'))
          emails.push(this.emailTo(told, person, alert, 'unopened'));
        if (person.plan.unopened.includes('push')) pushes.push(this.pushTo(told, person, alert, 'unopened'));
      }
      return { emails, pushes };
    }
    if (opened.size > 0) return { emails, pushes };
    // Nobody opened it: the zone's managers, by both channels, whether or not they were told.
    const managers = await zoneManagersOf(tx, alert);
    if (managers.length === 0) return { emails, pushes };
    for (const recipient of managers) {
      const person: Person = { recipient, plan: { now: ['push', 'email'], unopened: [] } };
      emails.push(this.emailTo(told, person, alert, 'escalated'));
      pushes.push(this.pushTo(told, person, alert, 'escalated'));
    }
    await recordEvent(tx, now, {
      action: 'alert_escalated',
      object: 'alert',
      objectId: alert.id,
      objectLabel: told.zone.zoneName,
      scope: told.zone,
      changedFields: [alert.category],
      by: null,
      origin: 'system',
    });
    return { emails, pushes };
  }

  /** Claims due alerts and queues their emails in one transaction: both happen, or neither. */
  private claimBatch(): Promise<number> {
    const now = this.ctx.now();
    return this.ctx.db.transaction(async (tx) => {
      const due = await claimDueAlerts(tx, now, this.options.batchSize ?? 20);
      const messages: EmailMessage[] = [];
      for (const alert of due) {
        messages.push(...(await this.messagesFor(tx, alert, now)));
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

  /**
   * The emails of an alert's round: when it opens, to the people whose first channels hold email;
   * a critical alert's reminders, to those who take email at once, and to those who keep it for an
   * alert they have not opened and have not.
   */
  private async messagesFor(tx: Db, alert: AlertRow, now: Date): Promise<EmailMessage[]> {
    const told = await this.told(tx, alert, now);
    if (!told) return [];
    const reminder = alert.emailRounds > 0;
    const opened = reminder ? await openersOf(tx, alert.id) : new Set<string>();
    return told.people
      .filter(({ recipient, plan }) =>
        reminder
          ? plan.now.includes('email') || (plan.unopened.includes('email') && !opened.has(recipient.id))
          : plan.now.includes('email'),
      )
      .map((person) => this.emailTo(told, person, alert, reminder ? 'reminder' : 'first'));
  }

  /**
   * One message for each user whose first channels hold push; the push queue sends it to each of
   * their browsers, unless they snoozed its zone and category (docs/push.md "Snooze").
   */
  private async pushesFor(tx: Db, alert: AlertRow): Promise<NewPushMessage[]> {
    const told = await this.told(tx, alert, this.ctx.now());
    if (!told) return [];
    return told.people
      .filter(({ plan }) => plan.now.includes('push'))
      .map((person) => this.pushTo(told, person, alert, 'first'));
  }

  private emailTo(told: Audience, person: Person, alert: AlertRow, round: AlertRound): EmailMessage {
    const r = person.recipient;
    const template = alertEmail(r.language, {
      firstname: r.firstname,
      subject: told.subjects[r.language],
      alert,
      zone: told.zone,
      round,
      link: this.linkOf(alert),
    });
    return {
      to: r.email,
      ...template,
      kind: 'alert',
      ...(person.heldUntil ? { notBefore: person.heldUntil } : {}),
    };
  }

  private pushTo(told: Audience, person: Person, alert: AlertRow, round: AlertRound): NewPushMessage {
    const r = person.recipient;
    const { urgency, ttlS } = ALERT_PUSH[alertSeverity(alert.category)];
    return {
      userId: r.id,
      payload: JSON.stringify(
        alertPush(r.language, { alert, zone: told.zone, link: this.linkOf(alert), round }),
      ),
      urgency,
      ttlS,
      alertId: alert.id,
      readingAt: alert.openedAt,
      snoozable: { zoneId: alert.zoneId, category: alert.category },
      ...(person.heldUntil ? { notBefore: person.heldUntil } : {}),
    };
  }

  /**
   * Who is told of an alert, how, and where it is: none when its category is not emailed (spec §3
   * alert settings: the category's notifications) or its zone is gone; else each recipient
   * (recipients.repo.ts) who wants it here, with their channels (docs/alerts.md "How each person is
   * told") and, for an alert that can wait, the end of the quiet hours it falls in.
   */
  private async told(tx: Db, alert: AlertRow, now: Date): Promise<Audience | undefined> {
    const setting = await categorySetting(tx, alert.category);
    if (!setting.email) return undefined;
    const zone = await findAlertZone(tx, alert.zoneId);
    if (!zone) return undefined;
    const recipients = (await recipientsOf(tx, alert)).filter((r) =>
      wantsEmail(r, alert.category, alert.zoneId),
    );
    const withBrowser = this.pushes
      ? await this.pushes.reachable(
          tx,
          recipients.map((r) => r.id),
        )
      : new Set<string>();
    const severity = alertSeverity(alert.category);
    const people = recipients.map((recipient): Person => {
      const preferences = notificationPreferencesOf(recipient.notificationPreferences);
      const plan = channelPlan(
        preferences,
        severity,
        (ch) => ch === 'email' || withBrowser.has(recipient.id),
      );
      const heldUntil = severity === 'other' ? quietUntil(now, preferences.quiet_hours) : undefined;
      return { recipient, plan, ...(heldUntil ? { heldUntil } : {}) };
    });
    return { people, zone, subjects: setting.subject };
  }

  private linkOf(alert: AlertRow): string {
    return `${this.ctx.config.publicUrl}/notifications?zone_id=${alert.zoneId}&alert_id=${alert.id}`;
  }
}

/** A person told of an alert: by which channels at once and which if they do not open it. */
type Person = {
  recipient: Recipient;
  plan: { now: NotificationChannel[]; unopened: NotificationChannel[] };
  /** The end of the person's quiet hours, for an alert that can wait. */
  heldUntil?: Date;
};

type Audience = { people: Person[]; zone: AlertZone; subjects: Record<Recipient['language'], string> };

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
