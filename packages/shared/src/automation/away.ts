import { z } from 'zod';
import { backendDate } from '../validation.ts';
import { STALE_READING_S } from './detection.ts';

/*
 * Away mode (issue 33, docs/automation.md "Away mode"): a resident away from a date and time until
 * another, in the building's time zone. While away nobody should draw water, so any reading with
 * water in it opens an "away flow" alert; if the resident chose it, the water also closes, once
 * per period, through automatic closing's safety close. Pure: the server's detection listener calls
 * `judgeAway` beside detection's own decisions, which it leaves as they are.
 */

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const timeField = z.string({ error: 'validation.time' }).regex(TIME, 'validation.time');

/** What a resident or a manager sets: local dates and times of the building (spec §3 formats). */
export const AwayModeInputSchema = z
  .object({
    from_date: backendDate,
    from_time: timeField,
    until_date: backendDate,
    until_time: timeField,
    /** Close the water at the first flow while away (needs `valves.control` for an end user). */
    close_on_flow: z.boolean('validation.invalid').default(false),
  })
  .superRefine((v, ctx) => {
    const fields = [v.from_date, v.from_time, v.until_date, v.until_time];
    if (fields.some((f) => typeof f !== 'string')) return;
    // spec §5 "Should be posterior start date": the period ends after it starts.
    if (`${v.until_date}T${v.until_time}` <= `${v.from_date}T${v.from_time}`)
      ctx.addIssue({ code: 'custom', message: 'validation.end_after_start', path: ['until_date'] });
  });
export type AwayModeInput = z.output<typeof AwayModeInputSchema>;

export const AWAY_STATES = ['off', 'scheduled', 'away', 'ended'] as const;
export type AwayState = (typeof AWAY_STATES)[number];

/** A zone's away mode: its period (null: never set, or switched off), and what it did. */
export const AwayModeSchema = z.object({
  zone_id: z.uuid(),
  /** off: no period; scheduled: it starts later; away: under way; ended: its end has passed. */
  state: z.enum(AWAY_STATES),
  from: z.string().nullable(),
  until: z.string().nullable(),
  /** The same, as local date and time of the building ("2026-12-20T08:00"). */
  from_local: z.string().nullable(),
  until_local: z.string().nullable(),
  timezone: z.string(),
  close_on_flow: z.boolean(),
  set_by: z.string().nullable(),
  set_at: z.string().nullable(),
  /** When the water was closed for a flow during this period (once a period). */
  closed_at: z.string().nullable(),
});
export type AwayMode = z.infer<typeof AwayModeSchema>;

/** A zone's period as detection reads it. */
export type AwayPeriod = { from: Date; until: Date; closeOnFlow: boolean; closedAt: Date | null };

/** What `judgeAway` reads of a reading: its end on the server's time line and what it measured. */
export type AwayReading = {
  placedAt: Date;
  intervalS: number;
  volumeMl: number;
  flowS: number;
  flowboxId: string;
  seq?: number;
  /** Absent: true (clock.ts `Placement.live`). */
  live?: boolean;
};

/** What a batch's readings say of an away period: nothing, or an alert and perhaps a closing. */
export type AwayVerdict = {
  /** The first reading with water in it that ended inside the period. */
  first: AwayReading;
  /** Water of the batch's readings inside the period. */
  volumeMl: number;
  flowS: number;
  /** Close the water now (the resident's choice, water running now, not yet closed this period). */
  close: boolean;
};

export function awayState(period: Pick<AwayPeriod, 'from' | 'until'> | null, now: Date): AwayState {
  if (!period) return 'off';
  if (now < period.from) return 'scheduled';
  return now < period.until ? 'away' : 'ended';
}

/**
 * The away rule. A reading counts when it measured water (volume above 0) and its end falls inside
 * the period (`from` < end <= `until`), judged on its own time whatever order or delay it arrives
 * in: a reading buffered while the device was offline, delivered after the period ended, still
 * tells that water ran while nobody was home. The water closes only while the period is under way
 * and the reading is fresh and live (as automatic closing, docs/automation.md: a backlog cannot
 * close by itself, the flow may have stopped), and only once a period.
 */
export function judgeAway(
  period: AwayPeriod | null,
  readings: readonly AwayReading[],
  now: Date,
): AwayVerdict | null {
  if (!period) return null;
  const inside = readings.filter(
    (r) => r.volumeMl > 0 && r.placedAt > period.from && r.placedAt <= period.until,
  );
  if (inside.length === 0) return null;
  const first = inside.reduce((a, b) => (b.placedAt < a.placedAt ? b : a));
  const running = inside.some(
    (r) => (r.live ?? true) && now.getTime() - r.placedAt.getTime() <= STALE_READING_S * 1000,
  );
  return {
    first,
    volumeMl: inside.reduce((sum, r) => sum + r.volumeMl, 0),
    flowS: inside.reduce((sum, r) => sum + r.flowS, 0),
    close: period.closeOnFlow && period.closedAt === null && awayState(period, now) === 'away' && running,
  };
}
