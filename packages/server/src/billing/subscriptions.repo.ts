import { and, asc, count, desc, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import { ROLES, type ServiceLevel } from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import { withZoneScope, withZoneScopeOf, zoneAt } from '../db/scope.ts';
import { buildings, pricingPlans, sites, users, zones, zoneSubscriptions } from '../db/schema.ts';
import type { ZonePath } from '../http/params.ts';

export type SubscriptionRow = typeof zoneSubscriptions.$inferSelect;
export type NewSubscriptionRow = typeof zoneSubscriptions.$inferInsert;

/** A zone with what billing needs of its building: where it is (region), its currency, its clock. */
export type BillingZone = {
  id: string;
  name: string;
  buildingId: string;
  siteId: string;
  customerId: string;
  country: string;
  currency: string;
  timezone: string;
};

const billingZoneColumns = {
  id: zones.id,
  name: zones.name,
  buildingId: zones.buildingId,
  siteId: buildings.siteId,
  customerId: sites.customerId,
  country: buildings.country,
  currency: buildings.currency,
  timezone: buildings.timezone,
};

/** The zone at that place in the hierarchy; under another building, site or customer it is not found. */
export async function findBillingZone(db: Db, path: ZonePath): Promise<BillingZone | undefined> {
  const [row] = await withZoneScope(db.select(billingZoneColumns).from(zones)).where(zoneAt(path));
  return row;
}

export async function findBillingZoneById(db: Db, zoneId: string): Promise<BillingZone | undefined> {
  const [row] = await withZoneScope(db.select(billingZoneColumns).from(zones)).where(eq(zones.id, zoneId));
  return row;
}

/** Serialises changes of one zone's subscription: two choices at once cannot both start one. */
export async function lockZone(db: Db, zoneId: string): Promise<void> {
  await db.execute(sql`SELECT id FROM zones WHERE id = ${zoneId} FOR UPDATE`);
}

const withPlanName = { subscription: zoneSubscriptions, planName: pricingPlans.name };

/** Every subscription of a zone, newest first. */
export async function subscriptionsOfZone(db: Db, zoneId: string) {
  return db
    .select(withPlanName)
    .from(zoneSubscriptions)
    .innerJoin(pricingPlans, eq(pricingPlans.id, zoneSubscriptions.planId))
    .where(eq(zoneSubscriptions.zoneId, zoneId))
    .orderBy(desc(zoneSubscriptions.startDate), desc(zoneSubscriptions.createdAt));
}

export async function activeSubscription(db: Db, zoneId: string): Promise<SubscriptionRow | undefined> {
  const [row] = await db
    .select()
    .from(zoneSubscriptions)
    .where(and(eq(zoneSubscriptions.zoneId, zoneId), eq(zoneSubscriptions.status, 'active')));
  return row;
}

/** The subscription in force on a day: started by then, and not yet replaced. */
export async function subscriptionOn(
  db: Db,
  zoneId: string,
  day: string,
): Promise<SubscriptionRow | undefined> {
  const [row] = await db
    .select()
    .from(zoneSubscriptions)
    .where(
      and(
        eq(zoneSubscriptions.zoneId, zoneId),
        lte(zoneSubscriptions.startDate, day),
        or(isNull(zoneSubscriptions.endDate), gt(zoneSubscriptions.endDate, day)),
      ),
    )
    .orderBy(desc(zoneSubscriptions.startDate), desc(zoneSubscriptions.createdAt))
    .limit(1);
  return row;
}

export async function insertSubscription(db: Db, values: NewSubscriptionRow): Promise<SubscriptionRow> {
  const [row] = await db.insert(zoneSubscriptions).values(values).returning();
  return row!;
}

export async function endSubscription(db: Db, id: string, endDate: string): Promise<void> {
  await db
    .update(zoneSubscriptions)
    .set({ status: 'ended', endDate, updatedAt: new Date() })
    .where(eq(zoneSubscriptions.id, id));
}

/**
 * The zone's `service_level` column is a copy of its active subscription's, written in the same
 * transaction, so zone answers show it; the subscription is the truth (docs/billing.md).
 */
export async function copyServiceLevelToZone(db: Db, zoneId: string, level: ServiceLevel): Promise<void> {
  await db.update(zones).set({ serviceLevel: level, updatedAt: new Date() }).where(eq(zones.id, zoneId));
}

/**
 * Active subscriptions whose renewal day has come, locked so that one server instance renews
 * each (DESIGN.md §7: SKIP LOCKED); another instance skips them and takes the next ones.
 */
export async function claimDueRenewals(db: Db, today: string, limit: number) {
  const due = await withZoneScopeOf(
    db
      .select({ subscription: zoneSubscriptions, planName: pricingPlans.name, zone: billingZoneColumns })
      .from(zoneSubscriptions)
      .innerJoin(pricingPlans, eq(pricingPlans.id, zoneSubscriptions.planId)),
    zoneSubscriptions.zoneId,
  )
    .where(and(eq(zoneSubscriptions.status, 'active'), lte(zoneSubscriptions.renewalDate, today)))
    .orderBy(asc(zoneSubscriptions.renewalDate), asc(zoneSubscriptions.id))
    .limit(limit)
    .for('update', { of: zoneSubscriptions, skipLocked: true });
  return due;
}

export async function setRenewalDate(db: Db, id: string, renewalDate: string): Promise<void> {
  await db
    .update(zoneSubscriptions)
    .set({ renewalDate, updatedAt: new Date() })
    .where(eq(zoneSubscriptions.id, id));
}

/** The subscriptions screen's totals (spec §2 /subscriptions). */
export async function subscriptionTotals(db: Db) {
  const [row] = await db
    .select({
      active: sql<number>`count(*) FILTER (WHERE ${zoneSubscriptions.status} = 'active')::int`,
      premium: sql<number>`count(*) FILTER (WHERE ${zoneSubscriptions.status} = 'active' AND ${zoneSubscriptions.serviceLevel} = 'premium')::int`,
    })
    .from(zoneSubscriptions);
  const [zoneRow] = await db.select({ total: count() }).from(zones);
  const perPlan = await db
    .select({
      id: pricingPlans.id,
      name: pricingPlans.name,
      isDefault: pricingPlans.isDefault,
      archivedAt: pricingPlans.archivedAt,
      active: sql<number>`count(${zoneSubscriptions.id}) FILTER (WHERE ${zoneSubscriptions.status} = 'active')::int`,
      premium: sql<number>`count(${zoneSubscriptions.id}) FILTER (WHERE ${zoneSubscriptions.status} = 'active' AND ${zoneSubscriptions.serviceLevel} = 'premium')::int`,
    })
    .from(pricingPlans)
    .leftJoin(zoneSubscriptions, eq(zoneSubscriptions.planId, pricingPlans.id))
    .groupBy(pricingPlans.id)
    .orderBy(asc(pricingPlans.name), asc(pricingPlans.id));
  return {
    active: Number(row?.active ?? 0),
    premium: Number(row?.premium ?? 0),
    zones: zoneRow?.total ?? 0,
    perPlan,
  };
}

/** Whom a customer asks for a plan: the first provider manager (docs/billing.md). */
export async function providerContactEmail(db: Db): Promise<string | null> {
  const [row] = await db
    .select({ email: users.email })
    .from(users)
    .where(eq(users.role, ROLES.flovea_manager))
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(1);
  return row?.email ?? null;
}
