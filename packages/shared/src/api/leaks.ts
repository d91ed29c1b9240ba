import { z } from 'zod';
import { CURRENCIES } from './buildings.ts';

/**
 * A zone's or a building's leak analytics (issue 29, docs/automation.md "Leak analytics"), as
 * computed from its hourly figures after the last batch of readings (automation/leaks.ts). Rates
 * in litres per hour, volumes in litres; `as_of` null: no figures yet.
 */
export const LeakAnalyticsSchema = z.object({
  as_of: z.string().nullable(),
  /** The building's time zone: nights are local nights. */
  timezone: z.string(),
  continuous_flow: z.object({
    /** Hours since the last flow-free hour (Kamstrup flowIQ's LEAK hour counter). */
    hours: z.number().int(),
    /** No flow-free hour for 24 hours or more. */
    active: z.boolean(),
    since: z.string().nullable(),
    /** No flow-free hour in the 31 days read: `hours` is at least this. */
    at_least: z.boolean(),
    floor_lph: z.number().nullable(),
  }),
  /** Days without a flow-free hour among the last 31. */
  continuous_flow_days: z.number().int(),
  /** Minimum night flow of each night (00:00–05:00 local), dated by its morning, oldest first. */
  nights: z.array(z.object({ night: z.string(), min_lph: z.number(), hour: z.string() })),
  /** 20th percentile of the last 7 nights' minimum; null with fewer than 3 nights. */
  night_flow_lph: z.number().nullable(),
  /** Legitimate night use of the occupants (2.5 L/h each; a household of 2 when unknown). */
  allowance_lph: z.number(),
  /** The occupants the allowance counts; null: unknown, the default applies. */
  occupants: z.number().int().nullable(),
  above_allowance: z.boolean(),
  loss_lph: z.number(),
  loss_litres_per_day: z.number(),
  /** The loss priced by the zone's plan (a building: its zones' losses, each at its own price). */
  loss_cost_per_day: z.string().nullable(),
  currency: z.enum(CURRENCIES).nullable(),
});
export type LeakAnalytics = z.infer<typeof LeakAnalyticsSchema>;
