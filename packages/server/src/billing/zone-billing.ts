import { localDate, type PriceTerms } from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { versionsOf, type VersionWithRanges } from './plans.repo.ts';
import {
  activeSubscription,
  findBillingZoneById,
  subscriptionOn,
  type SubscriptionRow,
} from './subscriptions.repo.ts';

/*
 * What other domains ask billing about a zone. Call these after the access checks: they answer
 * about a zone the caller may already see.
 */

/** spec §5: a zone needs a subscription attached before pairing. */
export async function hasSubscription(db: Db, zoneId: string): Promise<boolean> {
  return Boolean(await activeSubscription(db, zoneId));
}

/**
 * spec §6: consumption details, premium-only views and premium-only alert categories are refused
 * on the server for a zone without an active premium subscription, with the way to upgrade.
 */
export async function requirePremium(db: Db, zoneId: string): Promise<void> {
  const subscription = await activeSubscription(db, zoneId);
  if (subscription?.serviceLevel !== 'premium') throw new AppError('errors.premium_required');
}

export type PricingOnDay = { subscription: SubscriptionRow; version: VersionWithRanges };

/**
 * The subscription and the plan version that price a zone's consumption of one day (spec §4: a
 * new price applies from its date; consumption before keeps the old one). None: not subscribed.
 */
export async function pricingOn(db: Db, zoneId: string, day: string): Promise<PricingOnDay | undefined> {
  const subscription = await subscriptionOn(db, zoneId, day);
  if (!subscription) return undefined;
  const version = versionInForce(await versionsOf(db, [subscription.planId]), day);
  return version ? { subscription, version } : undefined;
}

/** Versions newest first: the first one started by that day; before the plan's first day, the first. */
export function versionInForce(versions: VersionWithRanges[], day: string): VersionWithRanges | undefined {
  return versions.find((v) => v.fromDate <= day) ?? versions.at(-1);
}

/** The next version's price terms after `day` (versions newest first), dated; null: none is set. */
export function termsComing(versions: VersionWithRanges[], day: string): PriceTerms | null {
  const next = versions.filter((v) => v.fromDate > day).at(-1);
  if (!next) return null;
  return {
    from_date: next.fromDate,
    currency: next.currency,
    volume_unit: next.volumeUnit,
    ranges: next.ranges,
  };
}

/** Today in the zone's building, the day a choice starts and renewals fall due. */
export async function zoneToday(db: Db, zoneId: string, now: Date): Promise<string | undefined> {
  const zone = await findBillingZoneById(db, zoneId);
  return zone ? localDate(now, zone.timezone) : undefined;
}
