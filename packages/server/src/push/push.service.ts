import type {
  AlertCategory,
  PushKey,
  PushSnooze,
  PushSubscribe,
  PushSubscriptionInfo,
} from '@flowbox/shared';
import { pushSubscriberOf, requirePushSnooze, unknownTo, type Actor } from '../access/access.ts';
import type { Db } from '../db/client.ts';
import { AppError, notFound } from '../errors.ts';
import { recordChange } from '../events/index.ts';
import { browserLabel } from './browser-label.ts';
import type { PushDelivery } from './push-delivery.service.ts';
import {
  deleteOwnSubscription,
  saveSnooze,
  saveSubscription,
  subscriptionsOf,
  type PushSubscriptionRow,
} from './push.repo.ts';

/** An alert a snooze names, as the alerts domain finds it (app.ts passes `alertPlaceOf`). */
export type SnoozedAlert = {
  id: string;
  category: AlertCategory;
  customerId: string;
  siteId: string;
  buildingId: string;
  zoneId: string;
  zoneName: string;
};

/** What the snooze needs from outside the push domain: the alert it names, and the clock. */
export type PushSnoozeNeeds = {
  alertOf: (db: Db, alertId: string) => Promise<SnoozedAlert | undefined>;
  now: () => Date;
};

/**
 * The caller's browsers for Web Push (docs/push.md): the key they subscribe with, and their own
 * subscriptions, added, listed and removed (access.ts `pushSubscriberOf`); and the caller's
 * snoozes, which hold back their pushes of an alert's kind in its zone (`requirePushSnooze`).
 */
export class PushService {
  constructor(
    private readonly db: Db,
    private readonly delivery: Pick<PushDelivery, 'publicKey' | 'acceptsEndpoint'>,
    private readonly needs: PushSnoozeNeeds,
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

  /**
   * "Snooze" from a notification (docs/push.md "Snooze"): the caller is pushed no alert of this
   * one's category in its zone for `minutes`; other categories and emails still reach them. Logged
   * on the alert like its other changes.
   */
  async snooze(actor: Actor, alertId: string, minutes: number): Promise<PushSnooze> {
    const alert = await this.needs.alertOf(this.db, alertId);
    if (!alert) throw unknownTo(actor);
    const userId = requirePushSnooze(actor, alert);
    const now = this.needs.now();
    const until = new Date(now.getTime() + minutes * 60_000);
    await this.db.transaction(async (tx) => {
      await saveSnooze(tx, { userId, zoneId: alert.zoneId, category: alert.category, until });
      await recordChange(tx, now, actor, {
        action: 'alert_snoozed',
        object: 'alert',
        objectId: alert.id,
        objectLabel: alert.zoneName,
        scope: {
          customerId: alert.customerId,
          siteId: alert.siteId,
          buildingId: alert.buildingId,
          zoneId: alert.zoneId,
        },
        changedFields: [alert.category],
      });
    });
    return {
      alert_id: alert.id,
      zone_id: alert.zoneId,
      category: alert.category,
      until: until.toISOString(),
    };
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
