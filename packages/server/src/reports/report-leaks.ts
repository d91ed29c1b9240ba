import {
  addDays,
  continuousFlowDays,
  nightAllowanceLph,
  nightFlows,
  NIGHT_PERCENTILE,
  percentile,
  PERCENTILE_MIN_NIGHTS,
  startOfLocalDay,
  type HourFigure,
} from '@flowbox/shared';
import type { ReportPeriod } from './periods.ts';

/** A zone's leak figures over a report's period (docs/reports.md "What a report says"). */
export type PeriodLeakFigures = {
  /** The period's local days whose every hour is known and flowing. */
  continuousFlowDays: number;
  /** The 20th percentile of the minimum flows of the period's nights; null with fewer than 3. */
  nightFlowLph: number | null;
  allowanceLph: number;
  /** The period's nights measured (at least 3 of their hours known). */
  nights: number;
};

/**
 * Leak analytics' own rules (shared `automation/leaks.ts`) applied to the hours of the period
 * alone, in the report's time zone: a day or a night counts when it is one of the period's, so a
 * leak before the period is not the period's. A week's night flow is the one the leaks API judges at
 * its end (its last 7 nights); a month's, the same percentile over all its nights.
 */
export function periodLeakFigures(
  hours: readonly HourFigure[],
  timezone: string,
  period: ReportPeriod,
  occupants: number | null,
): PeriodLeakFigures {
  const end = startOfLocalDay(addDays(period.to, 1), timezone);
  const inPeriod = (day: string) => day >= period.from && day <= period.to;
  const nights = nightFlows(hours, timezone, end).filter((night) => inPeriod(night.night));
  return {
    continuousFlowDays: continuousFlowDays(hours, timezone, end).filter(inPeriod).length,
    nightFlowLph:
      nights.length >= PERCENTILE_MIN_NIGHTS
        ? percentile(
            nights.map((night) => night.minLph),
            NIGHT_PERCENTILE,
          )
        : null,
    allowanceLph: nightAllowanceLph(occupants),
    nights: nights.length,
  };
}
