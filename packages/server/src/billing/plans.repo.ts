import { and, asc, count, desc, eq, ilike, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { PriceRange, PricingPlan, PricingPlanVersion } from '@flowbox/shared';
import { normalizeDecimal } from '@flowbox/shared';
import { escapeLike } from '../db/values.ts';
import type { Db } from '../db/client.ts';
import { pricingPlanRanges, pricingPlans, pricingPlanVersions, zoneSubscriptions } from '../db/schema.ts';

export type PlanRow = typeof pricingPlans.$inferSelect;
export type NewPlanRow = typeof pricingPlans.$inferInsert;
export type VersionRow = typeof pricingPlanVersions.$inferSelect;
export type NewVersionRow = typeof pricingPlanVersions.$inferInsert;
export type VersionWithRanges = VersionRow & { ranges: PriceRange[] };

const activeSubscriptions = sql<number>`(SELECT count(*)::int FROM zone_subscriptions AS s WHERE s.plan_id = "pricing_plans"."id" AND s.status = 'active')`;

export type PlanListFilter = { search?: string; archived: boolean; limit: number; offset: number };

export async function listPlans(db: Db, filter: PlanListFilter) {
  const conditions = [filter.archived ? isNotNull(pricingPlans.archivedAt) : isNull(pricingPlans.archivedAt)];
  if (filter.search) conditions.push(ilike(pricingPlans.name, `%${escapeLike(filter.search)}%`));
  const where = and(...conditions);
  const [rows, [totalRow]] = await Promise.all([
    db
      .select({ plan: pricingPlans, subscriptionCount: activeSubscriptions })
      .from(pricingPlans)
      .where(where)
      .orderBy(desc(pricingPlans.isDefault), asc(pricingPlans.name), asc(pricingPlans.id))
      .limit(filter.limit)
      .offset(filter.offset),
    db.select({ total: count() }).from(pricingPlans).where(where),
  ]);
  return { items: await withVersions(db, rows), total: totalRow?.total ?? 0 };
}

export async function findPlan(db: Db, id: string): Promise<PricingPlan | undefined> {
  const rows = await db
    .select({ plan: pricingPlans, subscriptionCount: activeSubscriptions })
    .from(pricingPlans)
    .where(eq(pricingPlans.id, id));
  return (await withVersions(db, rows))[0];
}

export async function findPlanRow(db: Db, id: string): Promise<PlanRow | undefined> {
  const [row] = await db.select().from(pricingPlans).where(eq(pricingPlans.id, id));
  return row;
}

/**
 * Plans a building in `country` billed in `currency` may subscribe to (docs/billing.md regions):
 * not archived, listing the country, whose latest price is in that currency.
 */
export async function plansForRegion(db: Db, country: string, currency: string) {
  const rows = await db
    .select({ plan: pricingPlans, subscriptionCount: activeSubscriptions })
    .from(pricingPlans)
    .where(
      and(
        isNull(pricingPlans.archivedAt),
        sql`${pricingPlans.regions} @> ${JSON.stringify([country])}::jsonb`,
      ),
    )
    .orderBy(desc(pricingPlans.isDefault), asc(pricingPlans.name), asc(pricingPlans.id));
  return (await withVersions(db, rows)).filter((plan) => plan.currency === currency);
}

/** Every version of the plans with their ranges (two queries), answered newest version first. */
async function withVersions(db: Db, rows: { plan: PlanRow; subscriptionCount: number }[]) {
  if (rows.length === 0) return [];
  const versions = await versionsOf(
    db,
    rows.map((r) => r.plan.id),
  );
  return rows.map(({ plan, subscriptionCount }) =>
    toApiPlan(
      plan,
      versions.filter((v) => v.planId === plan.id),
      Number(subscriptionCount),
    ),
  );
}

export async function versionsOf(db: Db, planIds: string[]): Promise<VersionWithRanges[]> {
  const versions = await db
    .select()
    .from(pricingPlanVersions)
    .where(inArray(pricingPlanVersions.planId, planIds))
    .orderBy(asc(pricingPlanVersions.planId), desc(pricingPlanVersions.version));
  if (versions.length === 0) return [];
  const ranges = await db
    .select()
    .from(pricingPlanRanges)
    .where(
      inArray(
        pricingPlanRanges.versionId,
        versions.map((v) => v.id),
      ),
    )
    .orderBy(asc(pricingPlanRanges.versionId), asc(pricingPlanRanges.position));
  return versions.map((version) => ({
    ...version,
    ranges: ranges
      .filter((r) => r.versionId === version.id)
      .map((r) => ({
        volume_start: normalizeDecimal(r.volumeStart),
        volume_end: r.volumeEnd === null ? null : normalizeDecimal(r.volumeEnd),
        price_per_unit: normalizeDecimal(r.pricePerUnit),
      })),
  }));
}

/** The latest version of a plan: the one edited, and the one a new price archives. */
export async function latestVersion(db: Db, planId: string): Promise<VersionWithRanges | undefined> {
  return (await versionsOf(db, [planId]))[0];
}

export async function insertPlan(db: Db, values: NewPlanRow): Promise<PlanRow> {
  const [row] = await db.insert(pricingPlans).values(values).returning();
  return row!;
}

export async function updatePlan(db: Db, id: string, patch: Partial<NewPlanRow>): Promise<PlanRow> {
  const [row] = await db
    .update(pricingPlans)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(pricingPlans.id, id))
    .returning();
  return row!;
}

export async function deletePlan(db: Db, id: string): Promise<void> {
  await db.delete(pricingPlans).where(eq(pricingPlans.id, id));
}

export async function insertVersion(
  db: Db,
  values: NewVersionRow,
  ranges: PriceRange[],
): Promise<VersionRow> {
  const [row] = await db.insert(pricingPlanVersions).values(values).returning();
  await insertRanges(db, row!.id, ranges);
  return row!;
}

/** Corrects the terms of a version nobody has subscribed under (the service checks). */
export async function updateVersion(
  db: Db,
  id: string,
  patch: Partial<NewVersionRow>,
  ranges: PriceRange[] | undefined,
): Promise<void> {
  if (Object.keys(patch).length > 0)
    await db.update(pricingPlanVersions).set(patch).where(eq(pricingPlanVersions.id, id));
  if (ranges) {
    await db.delete(pricingPlanRanges).where(eq(pricingPlanRanges.versionId, id));
    await insertRanges(db, id, ranges);
  }
}

export async function archiveVersion(db: Db, id: string, at: Date): Promise<void> {
  await db.update(pricingPlanVersions).set({ archivedAt: at }).where(eq(pricingPlanVersions.id, id));
}

async function insertRanges(db: Db, versionId: string, ranges: PriceRange[]): Promise<void> {
  await db.insert(pricingPlanRanges).values(
    ranges.map((range, position) => ({
      versionId,
      position,
      volumeStart: range.volume_start,
      volumeEnd: range.volume_end,
      pricePerUnit: range.price_per_unit,
    })),
  );
}

/** Whether any zone ever subscribed to the plan: its prices are then part of their history. */
export async function planHasSubscriptions(db: Db, planId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: zoneSubscriptions.id })
    .from(zoneSubscriptions)
    .where(eq(zoneSubscriptions.planId, planId))
    .limit(1);
  return Boolean(row);
}

/** Other default plans sharing a country with `regions`: a country has one default plan at most. */
export async function defaultPlansOverlapping(db: Db, regions: string[], exceptId: string | null) {
  const rows = await db
    .select({ id: pricingPlans.id, regions: pricingPlans.regions })
    .from(pricingPlans)
    .where(and(eq(pricingPlans.isDefault, true), isNull(pricingPlans.archivedAt)));
  return rows.filter((r) => r.id !== exceptId && r.regions.some((code) => regions.includes(code)));
}

function toApiVersion(version: VersionWithRanges, next: VersionWithRanges | undefined): PricingPlanVersion {
  return {
    version: version.version,
    from_date: version.fromDate,
    until_date: next?.fromDate ?? null,
    archived_at: version.archivedAt?.toISOString() ?? null,
    billing_type: version.billingType,
    acquisition_type: version.acquisitionType,
    currency: version.currency,
    volume_unit: version.volumeUnit,
    ranges: version.ranges,
    created_at: version.createdAt.toISOString(),
  };
}

/** Versions come newest first: each one's successor is the one before it in the list. */
function toApiPlan(plan: PlanRow, versions: VersionWithRanges[], subscriptionCount: number): PricingPlan {
  const answered = versions.map((v, i) => toApiVersion(v, versions[i - 1]));
  const latest = answered[0]!;
  return {
    id: plan.id,
    name: plan.name,
    is_default: plan.isDefault,
    regions: plan.regions,
    archived_at: plan.archivedAt?.toISOString() ?? null,
    created_at: plan.createdAt.toISOString(),
    version: latest.version,
    from_date: latest.from_date,
    billing_type: latest.billing_type,
    acquisition_type: latest.acquisition_type,
    currency: latest.currency,
    volume_unit: latest.volume_unit,
    ranges: latest.ranges,
    subscription_count: subscriptionCount,
    versions: answered,
  };
}
