import { count, desc, eq } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { OutboxEmail } from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import { emails } from '../db/schema.ts';

export type EmailMessage = { to: string; subject: string; text: string; kind: string };

export type MailCounters = { queued: number; sent: number; failed: number };

type Logger = { warn: (obj: object, msg: string) => void };

/**
 * Every email is recorded in the outbox table; with SMTP_URL it is also sent through nodemailer.
 * In the embedded default the outbox is where a developer or admin reads invitation and reset links.
 * A failed send is recorded and logged, never raised: the action that asked for the email has happened.
 */
export class Mailer {
  private readonly transport: Transporter | undefined;
  /** Since the instance started: emails put in the outbox, sent through SMTP, failed to send. */
  readonly counters: MailCounters = { queued: 0, sent: 0, failed: 0 };

  constructor(
    private readonly db: Db,
    private readonly options: { smtpUrl: string | undefined; from: string; log: Logger },
  ) {
    this.transport = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : undefined;
  }

  async send(message: EmailMessage): Promise<void> {
    const [row] = await this.db
      .insert(emails)
      .values({ ...message, status: 'stored' })
      .returning({ id: emails.id });
    this.counters.queued += 1;
    if (!this.transport) return;
    try {
      await this.transport.sendMail({
        from: this.options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
      });
      this.counters.sent += 1;
      await this.db.update(emails).set({ status: 'sent', sentAt: new Date() }).where(eq(emails.id, row!.id));
    } catch (error) {
      this.counters.failed += 1;
      const text = error instanceof Error ? error.message : String(error);
      this.options.log.warn({ err: text, to: message.to }, 'email not sent');
      await this.db.update(emails).set({ status: 'failed', error: text }).where(eq(emails.id, row!.id));
    }
  }

  async outbox(limit: number, offset: number): Promise<{ items: OutboxEmail[]; total: number }> {
    const [rows, [totalRow]] = await Promise.all([
      this.db
        .select()
        .from(emails)
        .orderBy(desc(emails.createdAt), desc(emails.id))
        .limit(limit)
        .offset(offset),
      this.db.select({ total: count() }).from(emails),
    ]);
    const items = rows.map((r) => ({
      id: r.id,
      to: r.to,
      subject: r.subject,
      text: r.text,
      kind: r.kind,
      status: r.status,
      created_at: r.createdAt.toISOString(),
    }));
    return { items, total: totalRow?.total ?? 0 };
  }

  close(): void {
    this.transport?.close();
  }
}
