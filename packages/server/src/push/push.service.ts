import type { PushKey, PushSubscribe, PushSubscriptionInfo } from '@flowbox/shared';
import { pushSubscriberOf, type Actor } from '../access/access.ts';
import type { Db } from '../db/client.ts';
import { AppError, notFound } from '../errors.ts';
import { browserLabel } from './browser-label.ts';
import type { PushDelivery } from './push-delivery.service.ts';
import {
  deleteOwnSubscription,
  saveSubscription,
  subscriptionsOf,
  type PushSubscriptionRow,
} from './push.repo.ts';

/**
 * The caller's browsers for Web Push (docs/push.md): the key they subscribe with, and their own
 * subscriptions, added, listed and removed (access.ts `pushSubscriberOf`).
 */
export class PushService {
  constructor(
    private readonly db: Db,
    private readonly delivery: Pick<PushDelivery, 'publicKey' | 'acceptsEndpoint'>,
  ) {}

  key(): PushKey {
    return { public_key: this.delivery.publicKey };
  }

  async subscribe(
    actor: Actor,
    input: PushSubscribe,
    userAgent: string | undefined,
  ): Promise<PushSubscriptionInfo> {
    this.requireEndpoint(input.endpoint);
    const row = await saveSubscription(this.db, {
      userId: pushSubscriberOf(actor),
      endpoint: input.endpoint,
      p256dh: input.keys.p256dh.replace(/=+$/, ''),
      auth: input.keys.auth.replace(/=+$/, ''),
      label: input.label || browserLabel(userAgent),
    });
    return toApi(row);
  }

  async unsubscribe(actor: Actor, endpoint: string): Promise<void> {
    if (!(await deleteOwnSubscription(this.db, pushSubscriberOf(actor), endpoint))) throw notFound();
  }

  async list(actor: Actor): Promise<{ items: PushSubscriptionInfo[] }> {
    return { items: (await subscriptionsOf(this.db, pushSubscriberOf(actor))).map(toApi) };
  }

  /** https only: the schema takes http too, which only a test's push service on loopback may use. */
  private requireEndpoint(endpoint: string): void {
    if (!this.delivery.acceptsEndpoint(endpoint))
      throw new AppError('errors.validation', {}, [
        { path: 'endpoint', message: 'validation.push_endpoint' },
      ]);
  }
}

function toApi(row: PushSubscriptionRow): PushSubscriptionInfo {
  return {
    id: row.id,
    endpoint: row.endpoint,
    label: row.label,
    created_at: row.createdAt.toISOString(),
    last_success_at: row.lastSuccessAt?.toISOString() ?? null,
    failure_count: row.failureCount,
  };
}
