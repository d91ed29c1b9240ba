import {
  ROLES,
  addBillingPeriods,
  localDate,
  nextRenewal,
  pricesOn,
  type PricingPlan,
  type Subscription,
  type SubscriptionChoice,
  type SubscriptionsOverview,
  type ZoneSubscription,
} from '@flowbox/shared';
import { requireCustomerManage, requireRole, requireSiteManagerRead, type Actor } from '../access/access.ts';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import { AppError, notFound } from '../errors.ts';
import { recordChange, recordEvent } from '../events/index.ts';
import type { ZonePath } from '../http/params.ts';
import { plansForRegion, versionsOf } from './plans.repo.ts';
import {
  claimDueRenewals,
  copyServiceLevelToZone,
  endSubscription,
  findBillingZone,
  insertSubscription,
  lockZone,
  providerContactEmail,
  setRenewalDate,
  subscriptionsOfZone,
  subscriptionTotals,
  type BillingZone,
  type SubscriptionRow,
} from './subscriptions.repo.ts';
import { versionInForce } from './zone-billing.ts';

/** How many due renewals one pass claims; the next pass takes the rest. */
const RENEWAL_BATCH = 100;

/**
 * A zone's subscription (spec §3, §5): read like its site; chosen by provider managers and the
 * customer's managers holding `subscriptions.manage` (a commercial commitment, docs/billing.md).
 */
export class ZoneSubscriptionsService {
  constructor(private readonly ctx: Context) {}

  async info(actor: Actor, path: ZonePath): Promise<ZoneSubscription> {
    // Billing is managers' business: no plumber's, no end user's (docs/permissions.md).
    requireSiteManagerRead(actor, path.customerId, path.siteId);
    return this.answer(await this.findZone(path));
  }

  /**
   * Starts the chosen plan and service level today (the building's day). A current subscription
   * ends today, so each day has one; choosing what one already has changes nothing.
   */
  async choose(actor: Actor, path: ZonePath, input: SubscriptionChoice): Promise<ZoneSubscription> {
    requireCustomerManage(actor, path.customerId, 'subscriptions.manage');
    const zone = await this.findZone(path);
    const today = localDate(this.ctx.now(), zone.timezone);
    const plan = await this.requireOffered(zone, input.pricing_plan_id, today);
    await this.ctx.db.transaction(async (tx) => {
      await lockZone(tx, zone.id);
      const [current] = (await subscriptionsOfZone(tx, zone.id)).filter(
        (s) => s.subscription.status === 'active',
      );
      const was = current?.subscription;
      if (was && was.planId === plan.id && was.serviceLevel === input.service_level) return;
      if (was) await endSubscription(tx, was.id, today);
      await insertSubscription(tx, {
        zoneId: zone.id,
        planId: plan.id,
        serviceLevel: input.service_level,
        startDate: today,
        renewalDate: addBillingPeriods(today, plan.billing_type, 1),
      });
      await copyServiceLevelToZone(tx, zone.id, input.service_level);
      const changed = was
        ? [
            ...(was.planId !== plan.id ? ['pricing_plan_id'] : []),
            ...(was.serviceLevel !== input.service_level ? ['service_level'] : []),
          ]
        : [];
      await recordChange(tx, this.ctx.now(), actor, {
        action: was ? 'updated' : 'created',
        object: 'subscription',
        objectId: zone.id,
        objectLabel: `${zone.name} · ${plan.name}`,
        scope: scopeOf(zone),
        changedFields: changed,
      });
    });
    return this.answer(zone);
  }

  /**
   * spec §4 subscription renewal: each active subscription whose renewal day has come is renewed
   * for its plan's billing period (the version in force that day), one activity-log line per
   * renewal, in the renewal's transaction. Safe to run on every instance at once.
   */
  async renewDue(): Promise<number> {
    let renewed = 0;
    for (;;) {
      const batch = await this.ctx.db.transaction(async (tx) => {
        const now = this.ctx.now();
        // The earliest day on Earth's clocks is never ahead of any building's day.
        const due = await claimDueRenewals(tx, localDate(now, 'Etc/GMT-14'), RENEWAL_BATCH);
        let count = 0;
        for (const { subscription, planName, zone } of due) {
          const today = localDate(now, zone.timezone);
          count += await this.renew(tx, subscription, planName, zone, today, now);
        }
        return { claimed: due.length, count };
      });
      renewed += batch.count;
      if (batch.claimed < RENEWAL_BATCH) return renewed;
    }
  }

  async overview(actor: Actor): Promise<SubscriptionsOverview> {
    requireRole(actor, ROLES.flovea_manager);
    const totals = await subscriptionTotals(this.ctx.db);
    const live = totals.perPlan.filter((p) => p.archivedAt === null);
    return {
      plan_count: live.length,
      archived_plan_count: totals.perPlan.length - live.length,
      active_subscription_count: totals.active,
      premium_subscription_count: totals.premium,
      zone_count: totals.zones,
      plans: live.map((p) => ({
        id: p.id,
        name: p.name,
        is_default: p.isDefault,
        subscription_count: Number(p.active),
        premium_count: Number(p.premium),
      })),
    };
  }

  /** Renews a subscription for every period that has ended by the building's today. */
  private async renew(
    db: Db,
    subscription: SubscriptionRow,
    planName: string,
    zone: BillingZone,
    today: string,
    now: Date,
  ): Promise<number> {
    const versions = await versionsOf(db, [subscription.planId]);
    let renewal = subscription.renewalDate;
    let count = 0;
    while (renewal <= today) {
      const billingType = versionInForce(versions, renewal)!.billingType;
      renewal = nextRenewal(subscription.startDate, billingType, renewal);
      count += 1;
      await recordEvent(db, now, {
        action: 'renewed',
        object: 'subscription',
        objectId: zone.id,
        objectLabel: `${zone.name} · ${planName}`,
        scope: scopeOf(zone),
        by: null,
        origin: 'system',
        changedFields: ['renewal_date'],
      });
    }
    if (count > 0) await setRenewalDate(db, subscription.id, renewal);
    return count;
  }

  private async findZone(path: ZonePath): Promise<BillingZone> {
    const zone = await findBillingZone(this.ctx.db, path);
    if (!zone) throw notFound();
    return zone;
  }

  /** Plans offered to the zone today: its country, its building's currency, already started. */
  private async offeredPlans(zone: BillingZone, today: string) {
    const plans = await plansForRegion(this.ctx.db, zone.country, zone.currency);
    return plans.filter((plan) => plan.versions.at(-1)!.from_date <= today);
  }

  private async requireOffered(zone: BillingZone, planId: string, today: string): Promise<PricingPlan> {
    const offered = await this.offeredPlans(zone, today);
    if (offered.length === 0) throw await this.noPlans(zone);
    const plan = offered.find((p) => p.id === planId);
    if (!plan) throw new AppError('errors.pricing_plan_unavailable');
    return plan;
  }

  private async noPlans(zone: BillingZone): Promise<AppError> {
    const contact = (await providerContactEmail(this.ctx.db)) ?? '—';
    return new AppError('errors.no_pricing_plans', {
      country: zone.country,
      currency: zone.currency,
      contact,
    });
  }

  private async answer(zone: BillingZone): Promise<ZoneSubscription> {
    const today = localDate(this.ctx.now(), zone.timezone);
    const [rows, offered, contact] = await Promise.all([
      subscriptionsOfZone(this.ctx.db, zone.id),
      this.offeredPlans(zone, today),
      providerContactEmail(this.ctx.db),
    ]);
    const planIds = [...new Set(rows.map((r) => r.subscription.planId))];
    const versions = planIds.length > 0 ? await versionsOf(this.ctx.db, planIds) : [];
    const history = rows.map(({ subscription, planName }) =>
      toApiSubscription(
        subscription,
        planName,
        versionInForce(
          versions.filter((v) => v.planId === subscription.planId),
          subscription.endDate ?? today,
        )!,
      ),
    );
    return {
      zone_id: zone.id,
      country: zone.country,
      current: history.find((s) => s.status === 'active') ?? null,
      history,
      available_plans: offered.map(({ versions, ...plan }) => ({
        ...plan,
        prices: pricesOn(versions, today),
      })),
      contact_email: contact,
    };
  }
}

function scopeOf(zone: BillingZone) {
  return { customerId: zone.customerId, siteId: zone.siteId, buildingId: zone.buildingId, zoneId: zone.id };
}

function toApiSubscription(
  row: SubscriptionRow,
  planName: string,
  version: {
    billingType: Subscription['billing_type'];
    currency: Subscription['currency'];
    volumeUnit: Subscription['volume_unit'];
  },
): Subscription {
  return {
    id: row.id,
    zone_id: row.zoneId,
    pricing_plan_id: row.planId,
    pricing_plan_name: planName,
    service_level: row.serviceLevel,
    status: row.status,
    start_date: row.startDate,
    end_date: row.endDate,
    renewal_date: row.renewalDate,
    billing_type: version.billingType,
    currency: version.currency,
    volume_unit: version.volumeUnit,
    created_at: row.createdAt.toISOString(),
  };
}
