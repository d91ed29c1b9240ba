// Benchmark of detection and leak analytics on real households (issue #29 "Real households"): how
// often would the product close the water, raise a leak alert or flag a day of continuous flow in
// homes where nothing needs it? The false-alarm rate docs/automation.md "Measured on real
// households" publishes.
//
// Data: DAIAD smart water meter trial A (github.com/DAIAD/data), © the DAIAD consortium, licensed
// CC BY-SA 4.0 (creativecommons.org/licenses/by-sa/4.0): hourly meter readings of 46 households
// over about 14 months, ../shared/data/daiad/households.csv.gz beside the project (DAIAD_CSV to
// read another copy). Each household is read as a flowbox would report its rows (packages/server/
// src/test/daiad.ts: what is sent for gaps, repeated times and glitches), one household in memory
// at a time, and run through the live code, not a second implementation:
// - detection: `detectBatch` (packages/shared/src/automation/detection.ts), each reading judged as it
//   arrives, with the margins in force from `effectiveMargins`; every crossing is counted as a
//   closing (automatic closing on; the resident's reopening and its hour of blocked detection are
//   not simulated: they would only lower the count);
// - leak analytics: `continuousFlowDays`, `continuousFlowState`, `nightFlows`, `nightPercentile`
//   (packages/shared/src/automation/leaks.ts) over the hours the server would keep
//   (`hourStart` of packages/server/src/telemetry/time.ts).
// Hourly readings have no minute-scale shape, so two feeds of `flow_s` bracket it: `constant` (an
// hour's litres ran all hour: the most alarming reading) and `12 L/min` (they ran at a shower's flow).
// Knobs: DAIAD_CSV, BENCH_HOUSEHOLDS (how many households, all by default).
import {
  continuousFlowDays,
  continuousFlowState,
  DEFAULT_OCCUPANTS,
  localDate,
  nightAllowanceLph,
  nightFlows,
  nightPercentile,
  ROUND_THE_CLOCK_PROFILES,
  startOfLocalDay,
  ZONE_PROFILES,
  type HourFigure,
  type Margins,
  type OpeningHours,
} from '@flowbox/shared';
import { existsSync } from 'node:fs';
import { LEAK_WINDOW_MS } from '../packages/server/src/leaks/leaks.upkeep.ts';
import { hourStart } from '../packages/server/src/telemetry/time.ts';
import {
  DAIAD_CREDIT,
  DAIAD_FILE,
  DAIAD_TIMEZONE,
  readHouseholds,
  replay,
  runDetection,
  type FlowFeed,
  type ReplayCounts,
  type ReplayedReading,
} from '../packages/server/src/test/daiad.ts';

const LIMIT = Number(process.env.BENCH_HOUSEHOLDS ?? Infinity);
const HOUR_MS = 3_600_000;
const YEAR_MS = 365.25 * 86_400_000;

const FEEDS: { name: string; flow: FlowFeed }[] = [
  { name: 'constant flow over the hour', flow: 'constant' },
  { name: 'at 12 L/min', flow: { lpm: 12 } },
];

/** What a zone gets out of the box (no margin: leak alerts only), then margins a manager might set. */
const SETTINGS: { name: string; margins: Margins }[] = [
  { name: 'no margin', margins: { volumeMl: null, flowS: null } },
  ...[50, 100, 200, 500].map((l) => ({
    name: `volume ${l} L`,
    margins: { volumeMl: l * 1000, flowS: null },
  })),
  ...[30, 60, 120].map((m) => ({ name: `duration ${m} min`, margins: { volumeMl: null, flowS: m * 60 } })),
];

/** Opening hours for the profiles that tighten outside them: an office's week, 08:00–18:00. */
const WORKING_WEEK: OpeningHours = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day, i) => [
    day,
    i < 5 ? [{ start: '08:00', end: '18:00' }] : [],
  ]),
) as OpeningHours;

/** Detection differs between profiles only in whether margins halve outside opening hours. */
const roundTheClock = ZONE_PROFILES.filter((p) => ROUND_THE_CLOCK_PROFILES.includes(p));
const tightening = ZONE_PROFILES.filter((p) => !ROUND_THE_CLOCK_PROFILES.includes(p));
const PROFILE_CLASSES = [
  { name: 'round the clock', profile: roundTheClock[0]!, openingHours: null, profiles: roundTheClock },
  {
    name: 'halved off hours',
    profile: tightening[0]!,
    openingHours: WORKING_WEEK,
    profiles: tightening,
  },
];

type Tally = { closings: number; leaks: number };
const tallies = new Map<string, Tally>();
const tally = (key: string) => {
  let t = tallies.get(key);
  if (!t) tallies.set(key, (t = { closings: 0, leaks: 0 }));
  return t;
};

const analytics = {
  completeDays: 0,
  flaggedDays: 0,
  householdsFlagged: 0,
  episodes: 0,
  mornings: 0,
  morningsAbove: 0,
  householdsAbove: 0,
  flaggedBy: new Map<string, number>(),
  episodesBy: new Map<string, number>(),
  episodesThroughGaps: 0,
  daysWithData: 0,
};
const counts: ReplayCounts = { rows: 0, readings: 0, negative: 0, notAfter: 0, gaps: 0, refused: 0 };
let households = 0;
let householdYears = 0;
let detectionMs = 0;
let detectedReadings = 0;
let analyticsMs = 0;

if (!existsSync(DAIAD_FILE)) {
  console.error(`DAIAD data not found at ${DAIAD_FILE} (set DAIAD_CSV)`);
  process.exit(1);
}
console.log(DAIAD_CREDIT);
const started = performance.now();
for await (const { household, rows } of readHouseholds(DAIAD_FILE)) {
  if (households >= LIMIT) break;
  households += 1;
  for (const [f, feed] of FEEDS.entries()) {
    const replayed = replay(rows, { flow: feed.flow });
    if (f === 0) {
      for (const k of Object.keys(counts) as (keyof ReplayCounts)[]) counts[k] += replayed.counts[k];
      const accepted = replayed.readings.filter((r) => r.accepted);
      householdYears += (accepted.at(-1)!.at - accepted[0]!.at) / YEAR_MS;
      const t0 = performance.now();
      analyse(household, replayed.readings);
      analyticsMs += performance.now() - t0;
    }
    for (const setting of SETTINGS)
      for (const profiles of PROFILE_CLASSES) {
        // Without margins the profile changes nothing, and a volume margin does not read flow_s:
        // each is run once.
        if (
          setting.margins.volumeMl === null &&
          setting.margins.flowS === null &&
          profiles !== PROFILE_CLASSES[0]
        )
          continue;
        if (setting.margins.volumeMl !== null && f > 0) continue;
        const t0 = performance.now();
        const run = runDetection(replayed.readings, {
          margins: setting.margins,
          profile: profiles.profile,
          openingHours: profiles.openingHours,
          timezone: DAIAD_TIMEZONE,
        });
        detectionMs += performance.now() - t0;
        detectedReadings += replayed.counts.readings - replayed.counts.refused;
        const t = tally(`${feed.name}|${setting.name}|${profiles.name}`);
        t.closings += run.crossings.length + run.past.length;
        t.leaks += run.leaks.length;
      }
  }
  process.stderr.write('.');
}
process.stderr.write('\n');

/** The leak analytics of one household over its whole record, as the server would keep them. */
function analyse(household: string, readings: readonly ReplayedReading[]): void {
  const sums = new Map<number, number>();
  for (const r of readings) {
    if (!r.accepted) continue;
    const hour = hourStart(new Date(r.at));
    sums.set(hour, (sums.get(hour) ?? 0) + Math.round(r.volumeL * 1000));
  }
  const hours: HourFigure[] = [...sums]
    .sort((a, b) => a[0] - b[0])
    .map(([hour, volumeMl]) => ({ hour, volumeMl }));
  const end = hours.at(-1)!.hour as number;
  const asOf = end + HOUR_MS;
  // Continuous-flow days, against the days that could be: every hour of them has a figure.
  const flagged = continuousFlowDays(hours, DAIAD_TIMEZONE, asOf);
  analytics.flaggedDays += flagged.length;
  if (flagged.length) analytics.householdsFlagged += 1;
  if (flagged.length) analytics.flaggedBy.set(household, flagged.length);
  const perDay = new Map<string, number>();
  for (const h of hours) {
    const day = localDate(h.hour, DAIAD_TIMEZONE);
    perDay.set(day, (perDay.get(day) ?? 0) + 1);
  }
  analytics.daysWithData += perDay.size;
  for (const [day, n] of perDay) {
    const next = localDate(startOfLocalDay(day, DAIAD_TIMEZONE).getTime() + 26 * HOUR_MS, DAIAD_TIMEZONE);
    const length =
      (startOfLocalDay(next, DAIAD_TIMEZONE).getTime() - startOfLocalDay(day, DAIAD_TIMEZONE).getTime()) /
      HOUR_MS;
    if (n >= length) analytics.completeDays += 1;
  }
  // Episodes of the LEAK code (no flow-free hour in 24 h), judged at the end of every hour as the
  // server does after a batch: over the last 31 days of figures (LEAK_WINDOW_MS), from the last
  // flow-free hour on (the hours before it change nothing).
  let active = false;
  let from = 0;
  let dry = -1;
  for (let i = 0; i < hours.length; i++) {
    const at = (hours[i]!.hour as number) + HOUR_MS;
    if (hours[i]!.volumeMl === 0) dry = i;
    from = Math.max(from, dry);
    while ((hours[from]!.hour as number) < at - LEAK_WINDOW_MS) from += 1;
    const window = hours.slice(from, i + 1);
    const state = continuousFlowState(window, at);
    if (state.active && !active) {
      analytics.episodes += 1;
      analytics.episodesBy.set(household, (analytics.episodesBy.get(household) ?? 0) + 1);
      // Its run holds hours without a reading (a gap in the log, or readings drifting across an
      // hour boundary): the counter runs through unknown hours.
      const since = Date.parse(state.since!);
      if (window.filter((h) => (h.hour as number) >= since).length < state.hours)
        analytics.episodesThroughGaps += 1;
    }
    active = state.active;
  }
  // Night flow: the 7-night 20th percentile each morning at 05:00, against the allowance of an
  // unknown household (DEFAULT_OCCUPANTS).
  const nights = nightFlows(hours, DAIAD_TIMEZONE, asOf);
  const allowance = nightAllowanceLph(null);
  let above = false;
  for (const night of nights) {
    const morning = startOfLocalDay(night.night, DAIAD_TIMEZONE).getTime() + 5 * HOUR_MS;
    const p = nightPercentile(nights, morning, DAIAD_TIMEZONE);
    if (p === null) continue;
    analytics.mornings += 1;
    if (p > allowance) {
      analytics.morningsAbove += 1;
      above = true;
    }
  }
  if (above) analytics.householdsAbove += 1;
}

const perYear = (n: number) => (n / householdYears).toFixed(2);
const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)} %`;
console.log(
  `${households} households, ${householdYears.toFixed(1)} household-years, ${counts.rows} rows → ` +
    `${counts.readings} readings (${counts.refused} refused by the protocol's check: beyond the ` +
    `largest model's flow), ${counts.negative} negative rows sent as 0 L, ${counts.notAfter} rows ` +
    `not after the previous one (litres carried on), ${counts.gaps} readings after a gap over 1.5 h`,
);
const cell = (feed: string, setting: string, profile: string) =>
  tallies.get(`${feed}|${setting}|${profile}`) ?? tallies.get(`${FEEDS[0]!.name}|${setting}|${profile}`);
console.log('\nDetection (detectBatch), per household-year');
console.log(
  `  leak alerts (an event reaching 2 h of flow, whatever the margins): ` +
    FEEDS.map(
      (f) => `${perYear(cell(f.name, SETTINGS[0]!.name, PROFILE_CLASSES[0]!.name)!.leaks)} (${f.name})`,
    ).join(', '),
);
console.log('  closings (alerts with automatic closing off), by the margins set:');
const columns = FEEDS.flatMap((f) => PROFILE_CLASSES.map((p) => ({ f, p })));
console.log(`  ${''.padEnd(18)}${FEEDS.map((f) => `flow_s: ${f.name}`.padEnd(36)).join('')}`);
console.log(`  ${'margin'.padEnd(18)}${columns.map(({ p }) => p.name.slice(0, 16).padEnd(18)).join('')}`);
for (const setting of SETTINGS.slice(1))
  console.log(
    `  ${setting.name.padEnd(18)}${columns.map(({ f, p }) => perYear(cell(f.name, setting.name, p.name)!.closings).padEnd(18)).join('')}`,
  );
console.log('  (off hours: outside Mon–Fri 08:00–18:00, margins halved; the profiles of each column:)');
for (const p of PROFILE_CLASSES) console.log(`  ${p.name}: ${p.profiles.join(', ')}`);
console.log(
  `\nLeak analytics (leaks.ts, from the hours the server keeps):\n` +
    `  continuous-flow days: ${analytics.flaggedDays} of ${analytics.completeDays} days with every hour known ` +
    `(${pct(analytics.flaggedDays, analytics.completeDays)}; ${pct(analytics.flaggedDays, analytics.daysWithData)} of the ` +
    `${analytics.daysWithData} days with any reading), in ${analytics.householdsFlagged} of ${households} households: ` +
    `${[...analytics.flaggedBy]
      .sort((a, b) => b[1] - a[1])
      .map(([h, n]) => `${h} ${n}`)
      .join(', ')}\n` +
    `  continuous-flow alerts (no flow-free hour in 24 h, once per episode): ${perYear(analytics.episodes)} per household-year (${analytics.episodes} episodes, ${analytics.episodesThroughGaps} of them across ` +
    `hours without a reading; in ${analytics.episodesBy.size} households: ` +
    `${[...analytics.episodesBy]
      .sort((a, b) => b[1] - a[1])
      .map(([h, n]) => `${h} ${n}`)
      .join(', ')})\n` +
    `  night flow above the allowance (${nightAllowanceLph(null)} L/h, ${DEFAULT_OCCUPANTS} occupants assumed): ` +
    `${analytics.morningsAbove} of ${analytics.mornings} mornings (${pct(analytics.morningsAbove, analytics.mornings)}), ` +
    `in ${analytics.householdsAbove} of ${households} households`,
);
console.log(
  `\nRuntime: ${((performance.now() - started) / 1000).toFixed(1)} s in all; detection ` +
    `${((detectionMs * 1000) / detectedReadings).toFixed(2)} µs per reading (${detectedReadings} readings judged); ` +
    `leak analytics ${(analyticsMs / 1000).toFixed(1)} s for ${households} household records`,
);
