import webpush from 'web-push';
import type { VapidKeys } from '../config.ts';
import type { Db } from '../db/client.ts';
import { KickedPass } from '../jobs/kicked-pass.ts';
import {
  claimDuePushMessages,
  deleteSubscription,
  insertPushMessages,
  recordPushFailure,
  recordPushSent,
  usersWithBrowsers,
  type DuePushMessage,
  type NewPushMessage,
} from './push.repo.ts';

export type { NewPushMessage } from './push.repo.ts';

/**
 * How Web Push messages are tried (docs/push.md "Delivery"): a message is tried as soon as it is
 * queued; a failed try waits twice as long as the one before (5 s, 10 s, 20 s … at most 2 min),
 * and the 6th failed try, or a refusal that will not change (another 4xx), fails it: an alert's
 * message lives 5 minutes at its push service anyway. A try holds its message for `leaseMs`: an
 * instance that stops mid-try leaves it to another one after that.
 */
export const PUSH_DELIVERY = {
  maxAttempts: 6,
  firstRetryMs: 5_000,
  maxRetryMs: 120_000,
  leaseMs: 60_000,
  batchSize: 50,
  /** A push service that has not answered by then fails the try. */
  timeoutMs: 10_000,
  /** The job's period: for retries and for what a stopped instance left. */
  everyMs: 5_000,
} as const;

/** Since the instance started; `gone`: subscriptions deleted on the push service's 404 or 410. */
export type PushCounters = { queued: number; sent: number; retried: number; failed: number; gone: number };

type Logger = { warn: (obj: object, msg: string) => void };

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export type PushDeliveryOptions = {
  vapid: VapidKeys;
  log: Logger;
  now?: () => Date;
  /**
   * Tests only: a push service on loopback stands in for the vendors'. Endpoints may be plain http,
   * and one elsewhere is never sent to: a test never reaches outside the machine.
   */
  testEndpoints?: boolean;
};

/** The wait after the `attempts`-th failed try. */
export function pushRetryDelayMs(attempts: number): number {
  return Math.min(PUSH_DELIVERY.firstRetryMs * 2 ** Math.max(0, attempts - 1), PUSH_DELIVERY.maxRetryMs);
}

/**
 * The Web Push queue (docs/push.md): messages are written in the transaction that decides them
 * (`enqueue`), one per browser of each user, and tried once it has committed (`kick`), then by the
 * `push_deliveries` job for retries and for what a stopped instance left. Tries claim due rows with
 * SKIP LOCKED, so with several instances each is made by one; delivery is at least once.
 *
 * web-push builds each request (the VAPID JWT of RFC 8292, the aes128gcm encryption of RFC 8291
 * for the browser's keys, TTL and Urgency); it is sent with fetch, bounded by a timeout.
 */
export class PushDelivery {
  readonly counters: PushCounters = { queued: 0, sent: 0, retried: 0, failed: 0, gone: 0 };
  private readonly passes: KickedPass;
  private readonly sentListeners = new Set<(latencyS: number) => void>();

  constructor(
    private readonly db: Db,
    private readonly options: PushDeliveryOptions,
  ) {
    this.passes = new KickedPass(() => this.deliverDue(), options.log, 'push pass failed');
  }

  /** The public key browsers subscribe with (`applicationServerKey`). */
  get publicKey(): string {
    return this.options.vapid.publicKey;
  }

  /** Whether an endpoint may be subscribed: https, or http in tests. */
  acceptsEndpoint(endpoint: string): boolean {
    const protocol = new URL(endpoint).protocol;
    return protocol === 'https:' || (protocol === 'http:' && this.options.testEndpoints === true);
  }

  /** Whether a message may be sent there: an endpoint it accepts, on loopback in tests. */
  private maySend(endpoint: string): boolean {
    if (!this.acceptsEndpoint(endpoint)) return false;
    return !this.options.testEndpoints || LOOPBACK.has(new URL(endpoint).hostname);
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  /**
   * Writes messages with `db`, which may be the transaction that decided them: one per browser of
   * each message's user, queued if, and only if, it commits. Call `kick` once it has.
   */
  async enqueue(db: Db, messages: NewPushMessage[]): Promise<number> {
    const queued = await insertPushMessages(db, messages, this.now());
    this.counters.queued += queued;
    return queued;
  }

  /** Of these users, those a push can reach: with at least one browser subscribed. */
  reachable(db: Db, userIds: readonly string[]): Promise<Set<string>> {
    return usersWithBrowsers(db, userIds);
  }

  /** Starts a delivery pass now, or right after the one running. Never throws. */
  kick(): void {
    this.passes.kick();
  }

  idle(): Promise<void> {
    return this.passes.idle();
  }

  /** Told each message the push service took, with its "reading → notification sent" in seconds. */
  onSent(listener: (latencyS: number) => void): () => void {
    this.sentListeners.add(listener);
    return () => this.sentListeners.delete(listener);
  }

  /** Tries every due message, a batch at a time; answers how many were tried. */
  async deliverDue(): Promise<number> {
    let tried = 0;
    for (;;) {
      const now = this.now();
      const batch = await claimDuePushMessages(
        this.db,
        now,
        new Date(now.getTime() + PUSH_DELIVERY.leaseMs),
        PUSH_DELIVERY.batchSize,
      );
      await Promise.all(batch.map((message) => this.tryOne(message)));
      tried += batch.length;
      if (batch.length < PUSH_DELIVERY.batchSize) return tried;
    }
  }

  private async tryOne(message: DuePushMessage): Promise<void> {
    // Refused at subscription; a row written otherwise is never sent in clear, nor off loopback in tests.
    if (!this.maySend(message.endpoint)) {
      await this.failed(message, 'endpoint not allowed', false);
      return;
    }
    let status: number;
    try {
      status = await this.send(message);
    } catch (error) {
      await this.failed(message, error instanceof Error ? error.message : String(error), true);
      return;
    }
    if (status >= 200 && status < 300) {
      const at = this.now();
      this.counters.sent++;
      await recordPushSent(this.db, message, at);
      if (message.readingAt) {
        const latencyS = (at.getTime() - message.readingAt.getTime()) / 1000;
        for (const listener of this.sentListeners) listener(latencyS);
      }
    } else if (status === 404 || status === 410) {
      // RFC 8030 §7.3: the subscription expired or was withdrawn; it will never take a message again.
      this.counters.gone++;
      await deleteSubscription(this.db, message.subscriptionId);
    } else {
      // 429 and 5xx may pass later; another refusal (a bad key, a payload too large) will not.
      await this.failed(message, `push service answered ${status}`, status === 429 || status >= 500);
    }
  }

  private async failed(message: DuePushMessage, error: string, retryable: boolean): Promise<void> {
    const last = !retryable || message.attempts >= PUSH_DELIVERY.maxAttempts;
    this.options.log.warn(
      { err: error, push: message.id, attempts: message.attempts, last },
      'push not sent',
    );
    if (last) this.counters.failed++;
    else this.counters.retried++;
    await recordPushFailure(this.db, message, {
      error,
      nextAttemptAt: last ? null : new Date(this.now().getTime() + pushRetryDelayMs(message.attempts)),
    });
  }

  /** One request to the browser's push service; answers its status. */
  private async send(message: DuePushMessage): Promise<number> {
    const request = webpush.generateRequestDetails(
      { endpoint: message.endpoint, keys: { p256dh: message.p256dh, auth: message.auth } },
      message.payload,
      {
        vapidDetails: this.options.vapid,
        TTL: message.ttlS,
        urgency: message.urgency,
        contentEncoding: 'aes128gcm',
      },
    );
    const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
    const response = await fetch(request.endpoint, {
      method: request.method,
      headers,
      body: request.body && new Uint8Array(request.body),
      redirect: 'error',
      signal: AbortSignal.timeout(PUSH_DELIVERY.timeoutMs),
    });
    await response.body?.cancel();
    return response.status;
  }

  async close(): Promise<void> {
    await this.idle();
  }
}
