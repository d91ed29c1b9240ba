import type { Currency } from './currencies.ts';
import {
  addExact,
  compareExact,
  formatExact,
  maxExact,
  minExact,
  multiplyExact,
  parseExact,
  subtractExact,
  EXACT_ZERO,
  type Exact,
} from './decimal.ts';
import { fromLiters } from './units.ts';
import { type VolumeUnit } from '../domain/buildings.ts';

/**
 * One price range of a plan (spec §3, §5): the volume from `volume_start` up to `volume_end`
 * (none: no end limit) is billed `price_per_unit` per unit, in the plan's volume unit, per
 * billing period. Values are exact decimal strings.
 */
export type PriceRange = { volume_start: string; volume_end: string | null; price_per_unit: string };

/** What rule a list of ranges breaks, by index and field (spec §5 price ranges). */
export type RangeIssue = {
  index: number;
  field: 'volume_start' | 'volume_end';
  message:
    | 'validation.range_first_zero'
    | 'validation.range_end_after_start'
    | 'validation.range_contiguous'
    | 'validation.range_last_open'
    | 'validation.range_only_last_open';
};

/**
 * spec §5: the first range starts at 0, each ends after it starts, each starts where the previous
 * ended (contiguous), and only the last has "No end limit" (spec §9: the last has no end).
 */
export function rangeIssues(ranges: readonly PriceRange[]): RangeIssue[] {
  const issues: RangeIssue[] = [];
  ranges.forEach((range, index) => {
    const start = parseExact(range.volume_start);
    const isLast = index === ranges.length - 1;
    if (index === 0 && compareExact(start, EXACT_ZERO) !== 0)
      issues.push({ index, field: 'volume_start', message: 'validation.range_first_zero' });
    const previousEnd = index > 0 ? ranges[index - 1]!.volume_end : null;
    if (index > 0 && previousEnd !== null && compareExact(parseExact(previousEnd), start) !== 0)
      issues.push({ index, field: 'volume_start', message: 'validation.range_contiguous' });
    if (range.volume_end === null) {
      if (!isLast) issues.push({ index, field: 'volume_end', message: 'validation.range_only_last_open' });
      return;
    }
    if (compareExact(parseExact(range.volume_end), start) <= 0)
      issues.push({ index, field: 'volume_end', message: 'validation.range_end_after_start' });
    if (isLast) issues.push({ index, field: 'volume_end', message: 'validation.range_last_open' });
  });
  return issues;
}

/** The index of the range a volume falls in: start ≤ volume < end, or the open last range. */
export function rangeIndexOf(ranges: readonly PriceRange[], volume: Exact): number {
  return ranges.findIndex(
    (range) =>
      compareExact(volume, parseExact(range.volume_start)) >= 0 &&
      (range.volume_end === null || compareExact(volume, parseExact(range.volume_end)) < 0),
  );
}

export type TierLine = { index: number; volume: Exact; amount: Exact };

/**
 * Graduated pricing: each range bills only the part of the volume that lies inside it, so a
 * larger volume never costs less (no jump down at a range's end). `volume` is in the plan's unit.
 */
export function priceTiers(ranges: readonly PriceRange[], volume: Exact): TierLine[] {
  return ranges.map((range, index) => {
    const start = parseExact(range.volume_start);
    const end = range.volume_end === null ? volume : minExact(volume, parseExact(range.volume_end));
    const inside = maxExact(EXACT_ZERO, subtractExact(end, start));
    return { index, volume: inside, amount: multiplyExact(inside, parseExact(range.price_per_unit)) };
  });
}

export function priceVolume(ranges: readonly PriceRange[], volume: Exact): Exact {
  return priceTiers(ranges, volume).reduce((sum, line) => addExact(sum, line.amount), EXACT_ZERO);
}

/** Decimals of each currency's minor unit (ISO 4217): 2 unless listed. */
const MINOR_DIGITS: Partial<Record<Currency, number>> = { JPY: 0, XOF: 0, XAF: 0, TND: 3 };
export const minorDigits = (currency: Currency): number => MINOR_DIGITS[currency] ?? 2;

/** An amount as shown and billed: rounded once, half away from zero, to the currency's minor unit. */
export const formatAmount = (amount: Exact, currency: Currency): string =>
  formatExact(amount, minorDigits(currency));

export type PricedConsumption = {
  /** The volume in the plan's unit, to 4 decimals. */
  volume: string;
  volume_unit: VolumeUnit;
  amount: string;
  currency: Currency;
};

/**
 * The price of one billing period's consumption, measured in litres (DESIGN.md §4: telemetry is
 * stored in litres), through the plan's ranges in its unit and currency.
 */
export function priceConsumption(
  plan: { ranges: readonly PriceRange[]; volume_unit: VolumeUnit; currency: Currency },
  liters: Exact | string,
): PricedConsumption {
  const inLiters = typeof liters === 'string' ? parseExact(liters) : liters;
  const volume = fromLiters(inLiters, plan.volume_unit);
  return {
    volume: formatExact(volume, 4),
    volume_unit: plan.volume_unit,
    amount: formatAmount(priceVolume(plan.ranges, volume), plan.currency),
    currency: plan.currency,
  };
}
