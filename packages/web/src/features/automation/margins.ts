import {
  effectiveMargins,
  isWithinOpeningHours,
  LITERS_PER_UNIT,
  ROUND_THE_CLOCK_PROFILES,
  type Automation,
  type OpeningHours,
  type ZoneProfile,
} from '@flowbox/shared';

/** Why the margins in force are what they are (docs/automation.md "Profile and opening hours"). */
export type MarginsReason = 'open' | 'off_hours' | 'round_the_clock' | 'no_hours';

/** The margins detection applies at a time, in the card's units (its volume unit, minutes); null: not checked. */
export type MarginsNow = { reason: MarginsReason; volume: number | null; minutes: number | null };

/**
 * The margins in force at `at`, by the same rule as detection (`effectiveMargins`), so the card says
 * the margin an alert raised then names: an office's are halved outside its opening hours (issue 30).
 */
export function marginsNow(
  automation: Automation,
  zone: { profile: ZoneProfile; effective_opening_hours: OpeningHours | null },
  timezone: string,
  at: Date,
): MarginsNow {
  const mlPerUnit = Number(LITERS_PER_UNIT[automation.volume_unit]) * 1000;
  const set = {
    volumeMl:
      automation.volume_margin_enabled && automation.volume_margin !== null
        ? Math.round(automation.volume_margin * mlPerUnit)
        : null,
    flowS:
      automation.duration_margin_enabled && automation.duration_margin_minutes !== null
        ? automation.duration_margin_minutes * 60
        : null,
  };
  const hours = zone.effective_opening_hours;
  const now = effectiveMargins(set, { profile: zone.profile, openingHours: hours, timezone }, at);
  const reason: MarginsReason = ROUND_THE_CLOCK_PROFILES.includes(zone.profile)
    ? 'round_the_clock'
    : !hours
      ? 'no_hours'
      : isWithinOpeningHours(hours, timezone, at)
        ? 'open'
        : 'off_hours';
  return {
    reason,
    volume: now.volumeMl === null ? null : now.volumeMl / mlPerUnit,
    minutes: now.flowS === null ? null : now.flowS / 60,
  };
}
