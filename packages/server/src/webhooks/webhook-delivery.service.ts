import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { WebhookPayload } from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import { recordEvent } from '../events/index.ts';
import { KickedPass } from '../jobs/kicked-pass.ts';
import type { Mailer } from '../mail/mailer.ts';
import { webhookDisabledEmail } from './texts.ts';
import { webhookSignature } from './signature.ts';
import {
  addressesOf,
  sendableAddress,
  systemLookup,
  webhookSchemeAccepted,
  type LookupAll,
  type ResolvedAddress,
} from './webhook-address.ts';
import {
  claimDueDeliveries,
  customerManagersOf,
  giveUpQueued,
  pruneDeliveries,
  recordDelivered,
  recordFailedTry,
  updateWebhook,
  type DueWebhookDelivery,
  type WebhookRow,
} from './webhooks.repo.ts';

/**
 * How webhook deliveries are tried (docs/webhooks.md "Retries"): at once, then after 30 s, 1 min,
 * 2 min … at most an hour apart, 12 tries in all (about 6 h). A network error, a timeout (10 s),
 * 408, 429 and 5xx are tried again; another answer (3xx: redirects are not followed, 4xx) fails
 * the delivery at once. A webhook is disabled when 20 deliveries in a row failed for good, or when
 * it has failed for 24 hours without one delivered. Deliveries done are kept 30 days.
 */
export const WEBHOOK_DELIVERY = {
  maxAttempts: 12,
  firstRetryMs: 30_000,
  maxRetryMs: 3_600_000,
  leaseMs: 60_000,
  batchSize: 50,
  timeoutMs: 10_000,
  everyMs: 5_000,
  disableAfterFailures: 20,
  disableAfterFailingMs: 24 * 3_600_000,
  keepMs: 30 * 86_400_000,
} as const;

/** The wait after the `attempts`-th failed try. */
export function webhookRetryDelayMs(attempts: number): number {
  return Math.min(
    WEBHOOK_DELIVERY.firstRetryMs * 2 ** Math.max(0, attempts - 1),
    WEBHOOK_DELIVERY.maxRetryMs,
  );
}

/** Since the instance started. */
export type WebhookCounters = { delivered: number; retried: number; failed: number; disabled: number };

type Logger = { warn: (obj: object, msg: string) => void };

export type WebhookDeliveryOptions = {
  log: Logger;
  mailer: Pick<Mailer, 'enqueue' | 'kick'>;
  publicUrl: string;
  now?: () => Date;
  /**
   * Tests only (docs/webhooks.md "Tests"): a receiver on loopback stands in for the customer's, so
   * addresses may be plain http, and only loopback ones are ever sent to.
   */
  testEndpoints?: boolean;
  /** How host names are resolved: the system's resolver, or the tests' stand-in. */
  lookup?: LookupAll;
};

/**
 * The webhook queue (docs/webhooks.md): deliveries are written in the transaction that logged what
 * happened (the trigger of migration 0029), tried once it has committed (the instances hear of
 * them: `kick`), then by the `webhook_deliveries` job for retries and for what a stopped instance
 * left. Tries claim due rows with SKIP LOCKED, so with several instances each is made by one;
 * delivery is at least once, and receivers de-duplicate on the event's id.
 */
export class WebhookDelivery {
  readonly counters: WebhookCounters = { delivered: 0, retried: 0, failed: 0, disabled: 0 };
  private readonly passes: KickedPass;

  constructor(
    private readonly db: Db,
    private readonly options: WebhookDeliveryOptions,
  ) {
    this.passes = new KickedPass(() => this.deliverDue(), options.log, 'webhook pass failed');
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  /** Starts a delivery pass now, or right after the one running. Never throws. */
  kick(): void {
    this.passes.kick();
  }

  idle(): Promise<void> {
    return this.passes.idle();
  }

  /** Tries every due delivery, a batch at a time; answers how many were tried. */
  async deliverDue(): Promise<number> {
    let tried = 0;
    for (;;) {
      const now = this.now();
      const batch = await claimDueDeliveries(
        this.db,
        now,
        new Date(now.getTime() + WEBHOOK_DELIVERY.leaseMs),
        WEBHOOK_DELIVERY.batchSize,
      );
      await Promise.all(batch.map((delivery) => this.tryOne(delivery)));
      tried += batch.length;
      if (batch.length < WEBHOOK_DELIVERY.batchSize) return tried;
    }
  }

  /** The job's pass: due deliveries, then what is older than 30 days. */
  async pass(): Promise<number> {
    const tried = await this.deliverDue();
    await pruneDeliveries(this.db, new Date(this.now().getTime() - WEBHOOK_DELIVERY.keepMs), 1000);
    return tried;
  }

  private async tryOne(delivery: DueWebhookDelivery): Promise<void> {
    const destination = await this.destinationOf(delivery);
    if ('refused' in destination) {
      await this.failed(delivery, { responseStatus: null, ...destination.refused });
      return;
    }
    let status: number;
    try {
      status = await this.send(delivery, destination.url, destination.addresses);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await this.failed(delivery, { responseStatus: null, error: message, retryable: true });
      return;
    }
    if (status >= 200 && status < 300) {
      this.counters.delivered++;
      await recordDelivered(this.db, delivery, { responseStatus: status, at: this.now() });
      return;
    }
    await this.failed(delivery, {
      responseStatus: status,
      error: `receiver answered ${status}`,
      // A busy or failing receiver may take it later; another answer will not change.
      retryable: status === 408 || status === 429 || status >= 500,
    });
  }

  private async failed(
    delivery: DueWebhookDelivery,
    outcome: { responseStatus: number | null; error: string; retryable: boolean },
  ): Promise<void> {
    const last = !outcome.retryable || delivery.attempts >= WEBHOOK_DELIVERY.maxAttempts;
    this.options.log.warn(
      { err: outcome.error, webhookDelivery: delivery.id, attempts: delivery.attempts, last },
      'webhook not delivered',
    );
    if (last) this.counters.failed++;
    else this.counters.retried++;
    const at = this.now();
    // The wait counts from the try's start, as the log shows it.
    const triedAt = delivery.lastAttemptAt ?? at;
    const disabled = await this.db.transaction(async (tx) => {
      const webhook = await recordFailedTry(tx, delivery, {
        responseStatus: outcome.responseStatus,
        error: outcome.error.slice(0, 500),
        nextAttemptAt: last ? null : new Date(triedAt.getTime() + webhookRetryDelayMs(delivery.attempts)),
        at,
      });
      if (!webhook) return false;
      // Disabled while this try ran (or a test event of a disabled webhook): no retry.
      if (!webhook.enabled) await giveUpQueued(tx, webhook.id, 'webhook disabled');
      if (!webhook.enabled || !this.failedTooLong(webhook, at)) return false;
      await this.disable(tx, webhook, at);
      return true;
    });
    if (disabled) {
      this.counters.disabled++;
      this.options.mailer.kick();
    }
  }

  private failedTooLong(webhook: WebhookRow, at: Date): boolean {
    if (webhook.consecutiveFailures >= WEBHOOK_DELIVERY.disableAfterFailures) return true;
    return (
      webhook.failingSince !== null &&
      at.getTime() - webhook.failingSince.getTime() >= WEBHOOK_DELIVERY.disableAfterFailingMs
    );
  }

  /**
   * docs/webhooks.md "Disabling": the webhook stops, what it had queued is given up, the activity
   * log says the server disabled it, and the customer's customer managers are emailed.
   */
  private async disable(tx: Db, webhook: WebhookRow, at: Date): Promise<void> {
    await updateWebhook(tx, webhook.id, { enabled: false, disabledReason: 'failures' });
    await giveUpQueued(tx, webhook.id, 'webhook disabled');
    await recordEvent(tx, at, {
      action: 'updated',
      object: 'webhook',
      objectId: webhook.id,
      objectLabel: webhookLabel(webhook),
      scope: { customerId: webhook.customerId },
      by: null,
      origin: 'system',
      changedFields: ['webhook_enabled'],
    });
    const link = `${this.options.publicUrl}/customers/${webhook.customerId}/webhooks`;
    const managers = await customerManagersOf(tx, webhook.customerId);
    await this.options.mailer.enqueue(
      tx,
      managers.map((manager) => ({
        to: manager.email,
        kind: 'webhook_disabled',
        ...webhookDisabledEmail(manager.language, {
          firstname: manager.firstname,
          url: webhook.url,
          failures: webhook.consecutiveFailures,
          link,
        }),
      })),
    );
  }

  /**
   * Where this try may connect (docs/webhooks.md "Where a webhook may point"): the host resolved
   * again now, and every address it names checked. Checked when saved too, but a name may resolve
   * elsewhere since (DNS rebinding), and a row may have been written otherwise: a refused address
   * fails the delivery at once, never sent to. A name that does not resolve is a network error.
   */
  private async destinationOf(
    delivery: DueWebhookDelivery,
  ): Promise<
    { url: URL; addresses: ResolvedAddress[] } | { refused: { error: string; retryable: boolean } }
  > {
    const policy = { testEndpoints: this.options.testEndpoints === true };
    const url = URL.parse(delivery.url);
    if (!url || !webhookSchemeAccepted(url, policy))
      return { refused: { error: 'address not allowed', retryable: false } };
    let addresses: ResolvedAddress[];
    try {
      addresses = await addressesOf(url, this.options.lookup ?? systemLookup);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return { refused: { error: `${url.hostname} not resolved: ${reason}`, retryable: true } };
    }
    const refused = addresses.find(({ address }) => !sendableAddress(address, policy));
    if (refused)
      return {
        refused: {
          error: `address not allowed: ${url.hostname} resolves to ${refused.address}, a private, local or reserved address`,
          retryable: false,
        },
      };
    return { url, addresses };
  }

  /**
   * One signed request to the receiver, connected to the addresses checked and no other (the
   * connection's own lookup answers them); answers its status. Redirects are not followed.
   */
  private send(delivery: DueWebhookDelivery, url: URL, addresses: ResolvedAddress[]): Promise<number> {
    const payload: WebhookPayload = {
      id: delivery.eventId,
      type: delivery.type as WebhookPayload['type'],
      created_at: delivery.eventCreatedAt.toISOString(),
      customer_id: delivery.customerId,
      data: delivery.data,
    };
    const body = Buffer.from(JSON.stringify(payload), 'utf8');
    const unixS = Math.floor(this.now().getTime() / 1000);
    const options: RequestOptions = {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': body.length,
        'user-agent': 'Flowbox-Webhooks/1',
        'flowbox-signature': webhookSignature(delivery.secret, unixS, body.toString('utf8')),
        'flowbox-event-id': delivery.eventId,
        'flowbox-delivery-id': delivery.id,
      },
      lookup: pinnedLookup(addresses),
      // A connection of its own: a pooled one may lead to an address checked for another try.
      agent: false,
      signal: AbortSignal.timeout(WEBHOOK_DELIVERY.timeoutMs),
    };
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<number>((resolve, reject) => {
      const outgoing = request(url, options, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      outgoing.on('error', (error) =>
        reject(error.name === 'AbortError' ? new Error('no answer within 10 s') : error),
      );
      outgoing.end(body);
    });
  }

  async close(): Promise<void> {
    await this.idle();
  }
}

/** How the activity log names a webhook: its description, or its address's host. */
export function webhookLabel(webhook: Pick<WebhookRow, 'description' | 'url'>): string {
  return webhook.description || (URL.parse(webhook.url)?.host ?? webhook.url);
}

/** A connection's lookup that answers the addresses already checked, whatever the name resolves to now. */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  };
}
