import nodemailer, { type Transporter } from 'nodemailer';
import type { OutboxEmail } from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import { KickedPass } from '../jobs/kicked-pass.ts';
import {
  claimDueEmails,
  insertEmails,
  outboxPage,
  recordTry,
  type EmailRow,
  type NewEmail,
} from './outbox.repo.ts';

export type EmailMessage = NewEmail;

type Logger = { warn: (obj: object, msg: string) => void };

/**
 * How emails are retried (docs/reliability.md "Emails"): each failed try waits twice as long as the
 * one before (1 min, 2 min, 4 min … at most 6 h); the 8th failed try, or a refusal for good (an SMTP
 * 5xx answer), fails the email. A try holds its email for `leaseMs`: an instance that stops mid-try
 * leaves it to another one after that.
 */
export const EMAIL_DELIVERY = {
  maxAttempts: 8,
  firstRetryMs: 60_000,
  maxRetryMs: 6 * 3_600_000,
  leaseMs: 5 * 60_000,
  batchSize: 20,
  /** The job's period: a queued email is tried at once (see `kick`), this is for retries and restarts. */
  everyMs: 10_000,
} as const;

/** Since the instance started. */
export type MailCounters = { queued: number; sent: number; retried: number; failed: number };

/** The wait after the `attempts`-th failed try. */
export function retryDelayMs(attempts: number): number {
  return Math.min(EMAIL_DELIVERY.firstRetryMs * 2 ** Math.max(0, attempts - 1), EMAIL_DELIVERY.maxRetryMs);
}

/**
 * Every email is recorded in the outbox table, which is also the delivery queue. Without SMTP_URL
 * it is `stored`: in the embedded default the outbox is where a developer or admin reads invitation
 * and reset links. With SMTP_URL it is `queued`: the request that asked for it only writes the row
 * (its answer never waits for a relay), and delivery tries run beside requests — one at once, and
 * the `emails` job for retries — claiming due rows with SKIP LOCKED so that with several instances
 * each try is made by one. Delivery is at least once: an instance stopped between the relay's
 * answer and the row's update leaves the email to be sent again after its lease.
 */
export class Mailer {
  private readonly transport: Transporter | undefined;
  readonly counters: MailCounters = { queued: 0, sent: 0, retried: 0, failed: 0 };
  private readonly passes: KickedPass;

  constructor(
    private readonly db: Db,
    private readonly options: {
      smtpUrl: string | undefined;
      from: string;
      log: Logger;
      now?: () => Date;
    },
  ) {
    // Bounded waits (nodemailer's own are minutes): a stuck relay fails a try, which is retried,
    // and a stopping server waits for a try at most this long. SMTP_URL's query may set others.
    this.transport = options.smtpUrl
      ? nodemailer.createTransport({
          url: options.smtpUrl,
          connectionTimeout: 15_000,
          greetingTimeout: 15_000,
          socketTimeout: 30_000,
        })
      : undefined;
    this.passes = new KickedPass(() => this.deliverDue(), options.log, 'email pass failed');
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  /** Queues one email and starts delivering it; answers once it is written, not sent. */
  async send(message: EmailMessage): Promise<void> {
    await this.enqueue(this.db, [message]);
    this.kick();
  }

  /**
   * Writes emails with `db`, which may be the transaction that decided to send them: they are
   * queued if, and only if, it commits. Call `kick` once it has.
   */
  async enqueue(db: Db, messages: EmailMessage[]): Promise<void> {
    await insertEmails(db, messages, this.transport ? 'queued' : 'stored', this.now());
    if (this.transport) this.counters.queued += messages.length;
  }

  /** Starts a delivery pass now, or right after the one running. Never throws. */
  kick(): void {
    if (this.transport) this.passes.kick();
  }

  /** Resolves when the deliveries started by `kick` are over (tests, and a stopping server). */
  idle(): Promise<void> {
    return this.passes.idle();
  }

  /** Tries every due email, a batch at a time; answers how many were tried. */
  async deliverDue(): Promise<number> {
    const transport = this.transport;
    if (!transport) return 0;
    let tried = 0;
    for (;;) {
      const now = this.now();
      const batch = await claimDueEmails(
        this.db,
        now,
        new Date(now.getTime() + EMAIL_DELIVERY.leaseMs),
        EMAIL_DELIVERY.batchSize,
      );
      for (const email of batch) await this.tryOne(transport, email);
      tried += batch.length;
      if (batch.length < EMAIL_DELIVERY.batchSize) return tried;
    }
  }

  private async tryOne(transport: Transporter, email: EmailRow): Promise<void> {
    try {
      await transport.sendMail({
        from: this.options.from,
        to: email.to,
        subject: email.subject,
        text: email.text,
      });
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      const refused = isPermanentRefusal(error);
      const last = refused || email.attempts >= EMAIL_DELIVERY.maxAttempts;
      this.options.log.warn({ err: text, email: email.id, attempts: email.attempts, last }, 'email not sent');
      if (last) {
        this.counters.failed++;
        await recordTry(this.db, email.id, { status: 'failed', error: text });
      } else {
        this.counters.retried++;
        const nextAttemptAt = new Date(this.now().getTime() + retryDelayMs(email.attempts));
        await recordTry(this.db, email.id, { status: 'queued', error: text, nextAttemptAt });
      }
      return;
    }
    this.counters.sent++;
    await recordTry(this.db, email.id, { status: 'sent', at: this.now() });
  }

  /** A page of the outbox, newest first; `search` keeps the emails whose recipient or subject holds it. */
  async outbox(page: {
    limit: number;
    offset: number;
    search?: string | undefined;
  }): Promise<{ items: OutboxEmail[]; total: number }> {
    const { rows, total } = await outboxPage(this.db, page);
    const items = rows.map((r) => ({
      id: r.id,
      to: r.to,
      subject: r.subject,
      text: r.text,
      kind: r.kind,
      status: r.status,
      attempts: r.attempts,
      error: r.error,
      next_attempt_at: r.status === 'queued' ? (r.nextAttemptAt?.toISOString() ?? null) : null,
      created_at: r.createdAt.toISOString(),
    }));
    return { items, total };
  }

  async close(): Promise<void> {
    await this.idle();
    this.transport?.close();
  }
}

/** An SMTP 5xx answer: the relay will refuse this email whenever it is tried (RFC 5321 §4.2.1). */
function isPermanentRefusal(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | undefined)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}
