import type { ConsumptionWindow, Currency, Language, VolumeUnit } from '@flowbox/shared';
import { dateTimeFormat, numberFormat } from '../../lib/intl.ts';

/** What one bucket of each window holds (spec §9): hours of the day, days of the week… */
export const BUCKET_OF: Record<ConsumptionWindow, 'hour' | 'day' | 'week' | 'month'> = {
  day: 'hour',
  week: 'day',
  month: 'week',
  year: 'month',
};

/**
 * A volume as the UI language writes it ("1234.5" → "1,234.5" / "1 234,5"): more decimals for
 * small figures, so a trickle of 0.012 m³ does not read as 0.
 */
export function formatVolumeNumber(value: string | number, language: Language): string {
  const amount = Number(value);
  const digits = Math.abs(amount) >= 10 ? 1 : Math.abs(amount) >= 1 ? 2 : 3;
  return numberFormat(language, { maximumFractionDigits: digits }).format(amount);
}

/** "1 234,5 m³": the number, a non-breaking space, the unit's symbol (given, already translated). */
export function formatVolume(value: string | number, unitSymbol: string, language: Language): string {
  return `${formatVolumeNumber(value, language)}\u00a0${unitSymbol}`;
}

/** "€18.60" / "18,60 €"; the decimal string goes to Intl as is (no float rounding); null → "—". */
export function formatCost(value: string | null, currency: Currency, language: Language): string {
  if (value === null) return '—';
  return numberFormat(language, { style: 'currency', currency }).format(value as Intl.StringNumericLiteral);
}

/** A change in percent ("8.2" → "+8.2%" / "+8,2 %"); the sign is always written. */
export function formatChange(changePct: string, language: Language): string {
  return numberFormat(language, {
    style: 'percent',
    signDisplay: 'exceptZero',
    maximumFractionDigits: 1,
  }).format(Number(changePct) / 100);
}

type BucketTime = { start: string; date: string };

/** A local date `yyyy-MM-dd` as noon UTC, so formatting it in UTC never slips to the day before. */
const localDate = (date: string) => new Date(`${date}T12:00:00Z`);

/**
 * The short label of a bucket on the chart's axis. Hours are read in the building's time zone
 * (DESIGN.md §4); days, weeks and months use the local date the server gives for the bucket.
 */
export function bucketAxisLabel(
  bucket: BucketTime,
  window: ConsumptionWindow,
  timeZone: string,
  language: Language,
): string {
  switch (window) {
    case 'day':
      return dateTimeFormat(language, { hour: 'numeric', timeZone }).format(new Date(bucket.start));
    case 'week':
      return dateTimeFormat(language, { weekday: 'short', day: 'numeric', timeZone: 'UTC' }).format(
        localDate(bucket.date),
      );
    case 'month':
      return dateTimeFormat(language, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
        localDate(bucket.date),
      );
    case 'year':
      return dateTimeFormat(language, { month: 'short', year: '2-digit', timeZone: 'UTC' }).format(
        localDate(bucket.date),
      );
  }
}

/** The full name of a bucket, for the tooltip and the table ("Monday 23 November, 14:00"). */
export function bucketTitle(
  bucket: BucketTime,
  window: ConsumptionWindow,
  timeZone: string,
  language: Language,
): string {
  switch (window) {
    case 'day':
      return dateTimeFormat(language, {
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        hour: '2-digit',
        minute: '2-digit',
        timeZone,
      }).format(new Date(bucket.start));
    case 'week':
    case 'month':
      return dateTimeFormat(language, {
        weekday: 'long',
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      }).format(localDate(bucket.date));
    case 'year':
      return dateTimeFormat(language, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
        localDate(bucket.date),
      );
  }
}

/** The weekday of a local date in the UI language ("Monday", "lundi"). */
export function weekdayName(date: Date, timeZone: string, language: Language): string {
  return dateTimeFormat(language, { weekday: 'long', timeZone }).format(date);
}

/** Whether a volume (a decimal string) is nothing at all. */
export function isZeroVolume(value: string): boolean {
  return Number(value) === 0;
}

export type UnitKey = `consumption.unit.${VolumeUnit}`;
export const unitKey = (unit: VolumeUnit): UnitKey => `consumption.unit.${unit}`;
