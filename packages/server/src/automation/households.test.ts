import { readingsOfFlowbox } from '../db/readings.ts';
import {
  analyseLeaks,
  continuousFlowDays,
  dayNumber,
  deviceTopic,
  encodePayload,
  localDate,
  nightFlows,
  nightPercentile,
  type Backtest,
  type HourFigure,
  type LeakAnalytics,
} from '@flowbox/shared';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts, consumptionHourly, telemetryReadings, zones } from '../db/schema.ts';
import { FlowboxIngest } from '../flowboxes/ingest.service.ts';
import {
  DAIAD_CREDIT,
  DAIAD_SAMPLE,
  DAIAD_TIMEZONE,
  readHouseholds,
  replay,
  runDetection,
  telemetry,
  type ReplayCounts,
  type ReplayedReading,
} from '../test/daiad.ts';
import { pairDirectly, type PairedDevice } from '../telemetry/testing.ts';
import { TelemetryWriter } from '../telemetry/writer.ts';
import {
  buildingBody,
  createTestApp,
  createWorld,
  loginAs,
  zoneBody,
  type ApiClient,
  type TestApp,
} from '../test/harness.ts';

/*
 * Real households through the real ingest (issue #29 "Real households"). Data: DAIAD smart water
 * meter trial A (github.com/DAIAD/data), © the DAIAD consortium, CC BY-SA 4.0; the sample and how it
 * was cut: src/test/daiad/README.md. Four households, one or two weeks each, moved by whole weeks to
 * start on the Monday after the test clock's now (local hours and weekdays kept), each reading
 * delivered live (received a second after its end, with `sent_at`), in one time order across the
 * households, each household a housing zone of its own in Europe/Madrid. What the server stored and
 * decided is checked against computations written here, on the readings sent:
 * - every accepted reading stored once, the refused ones (a meter glitch beyond the largest model's
 *   flow) not at all, and each UTC hour's litres as sent;
 * - continuous-flow days and minimum night flows (with their 7-night 20th percentile) of the
 *   analytics, from the hours the server keeps;
 * - the alerts detection raised: one `leakage_detection` per continuous-flow event reaching two hours
 *   of flow, one abnormal-consumption alert per event past a margin; and the same as the live
 *   detection code run over the same readings (`runDetection`, what `npm run bench households` runs).
 */

/** The sample's households and the Monday each window starts on (README.md). */
const WINDOWS: Record<string, string> = {
  H01: '2016-10-24',
  H04: '2016-11-07',
  H10: '2017-04-24',
  H40: '2017-01-16',
};

/** Alert-only margins (automatic closing off: a crossing raises an alert, the water keeps running). */
const MARGINS = { volumeL: 100, minutes: 60 };
const HOUR_MS = 3_600_000;
/** Each device uploads what it measured every this many hours. */
const UPLOAD_HOURS = 6;

type Replayed = {
  household: string;
  readings: ReplayedReading[];
  counts: ReplayCounts;
  zoneId: string;
  device: PairedDevice;
};

let t: TestApp;
let writer: TelemetryWriter;
let ingest: FlowboxIngest;
const replayed: Replayed[] = [];
/** The end of the replay: the analytics are judged as of then. */
let asOf = 0;
/** Each household's uploads: the server analysed its zone after each (its `as_of`). */
const uploads = new Map<string, number[]>();
let cmA: ApiClient;
let zonePath: (zoneId: string) => string;

beforeAll(async () => {
  t = await createTestApp({ accessTokenTtl: 30 * 86400 });
  const w = await createWorld(t.db);
  cmA = await loginAs(t.app, 'cm.a@test.io');
  const site = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
  const building = await cmA.post(
    `${site}/buildings/create`,
    buildingBody({ volume_unit: 'liter', timezone: DAIAD_TIMEZONE, type: 'residential' }),
  );
  expect(building.statusCode, building.body).toBe(201);
  const buildingId = building.json().id as string;
  zonePath = (zoneId) => `${site}/buildings/${buildingId}/zones/${zoneId}`;
  // The Monday the windows are moved to: at least two days ahead, so the first reading (the Sunday
  // before, late) is ahead of the clock too.
  const today = localDate(t.clock.now(), DAIAD_TIMEZONE);
  const start = dayNumber(today) + 2;
  const monday = start + ((7 - ((start + 3) % 7)) % 7); // day 0 (1970-01-01) was a Thursday
  const log = { warn: () => undefined, error: () => undefined };
  writer = new TelemetryWriter(t.services.context, t.services.telemetry, log);
  ingest = new FlowboxIngest(t.services.context, t.services.flowboxes, t.services.commands, log, 180, writer);

  for await (const { household, rows } of readHouseholds(DAIAD_SAMPLE)) {
    const shiftDays = monday - dayNumber(WINDOWS[household]!);
    expect(shiftDays % 7).toBe(0);
    const { readings, counts } = replay(rows, { flow: 'constant', shiftDays });
    // The device's next upload after the window: an hour without water (not in the data). An event
    // still under way at the window's end, whose crossing its last upload could not act on (its
    // water had run more than ten minutes before), ends with it and is reported about the past.
    const last = readings.at(-1)!;
    readings.push({
      ...last,
      seq: last.seq + 1,
      at: last.at + HOUR_MS,
      intervalS: 3600,
      volumeL: 0,
      flowS: 0,
    });
    const created = await cmA.post(
      `${site}/buildings/${buildingId}/zones/create`,
      zoneBody({ name: `Household ${household}`, profile: 'housing' }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const zoneId = created.json().id as string;
    // Premium: every category can be raised, so "no alert" is not the service level hiding one.
    await t.db.update(zones).set({ serviceLevel: 'premium' }).where(eq(zones.id, zoneId));
    const saved = await cmA.put(`${site}/buildings/${buildingId}/zones/${zoneId}/automation/update`, {
      automatic_closing_enabled: false,
      volume_margin_enabled: true,
      volume_margin: MARGINS.volumeL,
      duration_margin_enabled: true,
      duration_margin_minutes: MARGINS.minutes,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const device = await pairDirectly(t.db, {
      customerId: w.customers.a.id,
      siteId: w.sites.a1.id,
      buildingId,
      zoneId,
    });
    replayed.push({ household, readings, counts, zoneId, device });
  }
  expect(replayed.map((r) => r.household).sort()).toEqual(Object.keys(WINDOWS).sort());

  // Each household's device uploads its readings every six hours (as metering devices on a
  // narrow-band network do), the four households at the same moments: a batch is a quarter of a
  // day of four households, received a second after the last of its readings ended.
  const all = replayed
    .flatMap((h) => h.readings.map((reading) => ({ h, reading })))
    .sort((a, b) => a.reading.at - b.reading.at);
  expect(all[0]!.reading.at).toBeGreaterThan(t.clock.now().getTime());
  const encoder = new TextEncoder();
  const uploadOf = (at: number) => Math.floor(at / (UPLOAD_HOURS * HOUR_MS));
  for (let i = 0; i < all.length;) {
    const upload = uploadOf(all[i]!.reading.at);
    let j = i;
    while (j < all.length && uploadOf(all[j]!.reading.at) === upload) j += 1;
    const batch = all.slice(i, j);
    i = j;
    t.clock.advance(batch.at(-1)!.reading.at + 1000 - t.clock.now().getTime());
    const sentAt = t.clock.now().getTime() - 500;
    await Promise.all(
      batch.map(({ h, reading }) =>
        ingest.handle(
          deviceTopic(h.device.serial, 'telemetry'),
          encoder.encode(encodePayload(telemetry(reading, sentAt))),
        ),
      ),
    );
    // The server's leak analytics, kept after each batch (once its after-commit steps ran), done
    // before the next upload.
    await writer.flush();
    await t.services.leakUpkeep.idle();
    for (const household of new Set(batch.map(({ h }) => h.household)))
      uploads.set(household, [...(uploads.get(household) ?? []), t.clock.now().getTime()]);
  }
  asOf = t.clock.now().getTime();
}, 240_000);

afterAll(async () => {
  await writer?.close();
  await t?.close();
});

/** Each UTC hour's millilitres as sent: a reading counts, whole, in the hour of its last instant. */
function sentHours(readings: readonly ReplayedReading[]): Map<number, number> {
  const hours = new Map<number, number>();
  for (const r of readings) {
    if (!r.accepted) continue;
    const hour = Math.floor((r.at - 1) / HOUR_MS) * HOUR_MS;
    hours.set(hour, (hours.get(hour) ?? 0) + Math.round(r.volumeL * 1000));
  }
  return hours;
}

const localParts = new Intl.DateTimeFormat('en-CA', {
  timeZone: DAIAD_TIMEZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  hourCycle: 'h23',
});
/** The local date and hour of an instant in the households' time zone, read by Intl. */
function local(at: number): { date: string; hour: number } {
  const p = Object.fromEntries(localParts.formatToParts(at).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, hour: Number(p.hour) };
}

/**
 * Continuous-flow days, written here: the local days each of whose UTC hours (every hour starting
 * within the day: 23 or 25 when the clocks change) has water, ended by `end`. Every hour from a day
 * before the first figure is walked, so a day with an hour missing (or begun before the figures) is
 * not counted.
 */
function expectedContinuousDays(hours: Map<number, number>, end: number): string[] {
  const first = Math.min(...hours.keys());
  const byDay = new Map<string, { all: boolean; last: number }>();
  for (let h = first - 24 * HOUR_MS; h + HOUR_MS <= end; h += HOUR_MS) {
    const { date } = local(h);
    const day = byDay.get(date) ?? { all: true, last: 0 };
    day.all &&= (hours.get(h) ?? 0) > 0;
    day.last = h;
    byDay.set(date, day);
  }
  // A day whose last hour walked is followed by an hour of the same date did not end by `end`.
  return [...byDay]
    .filter(([date, d]) => d.all && local(d.last + HOUR_MS).date !== date)
    .map(([date]) => date);
}

/** The latest local date whose night (00:00–05:00) has ended by `end`. */
function lastNightEnded(end: number): number {
  const { date, hour } = local(end);
  return dayNumber(date) - (hour >= 5 ? 0 : 1);
}

/**
 * Minimum night flow, written here: per local night (dated by its morning) the lowest hour among
 * those starting 00:00–05:00 local that have figures, when at least 3 of them do, for nights ended
 * by `end`.
 */
function expectedNights(hours: Map<number, number>, end: number): { night: string; minLph: number }[] {
  const nights = new Map<string, number[]>();
  for (const [h, ml] of hours) {
    if (h + HOUR_MS > end) continue;
    const { date, hour } = local(h);
    if (hour >= 5) continue;
    nights.set(date, [...(nights.get(date) ?? []), ml]);
  }
  return [...nights]
    .filter(([date, values]) => values.length >= 3 && dayNumber(date) <= lastNightEnded(end))
    .map(([night, values]) => ({ night, minLph: Math.min(...values) / 1000 }))
    .sort((a, b) => (a.night < b.night ? -1 : 1));
}

/** The 20th percentile (nearest rank) of the minimum of the last 7 nights ended by `end`, from 3 nights. */
function expectedPercentile(nights: { night: string; minLph: number }[], end: number): number | null {
  const last = lastNightEnded(end);
  const recent = nights.filter((n) => dayNumber(n.night) <= last && dayNumber(n.night) > last - 7);
  if (recent.length < 3) return null;
  const sorted = recent.map((n) => n.minLph).sort((a, b) => a - b);
  return sorted[Math.ceil(0.2 * sorted.length) - 1]!;
}

/**
 * The continuous-flow hour counter at `end`, written here: an hour is flowing when it holds water,
 * flow-free when it is over and dry, unknown without figures. The counter runs from the end of the
 * last flow-free hour (or the first figure) to the end of the latest flowing hour; 0 when the latest
 * known hour is flow-free. `since` tells one run from another.
 */
function expectedCounter(hours: Map<number, number>, end: number): { hours: number; since: number | null } {
  const known = [...hours]
    .filter(([h, ml]) => h < end && (ml > 0 || h + HOUR_MS <= end))
    .sort((a, b) => a[0] - b[0]);
  const latest = known.at(-1);
  if (!latest || latest[1] === 0) return { hours: 0, since: null };
  const dry = known.filter(([, ml]) => ml === 0).at(-1);
  const since = dry ? dry[0] + HOUR_MS : known[0]![0];
  return { hours: (latest[0] + HOUR_MS - since) / HOUR_MS, since };
}

/**
 * Continuous-flow events, written here, over the readings as detection gets them (accepted, in seq
 * order): a flowing reading continues the event unless the flow-free time since the last flowing
 * one's end reaches 120 s; two readings of consecutive seqs are contiguous (the device says so),
 * otherwise the time between them counts. An event's volume and flow time are its readings' sums.
 */
function expectedEvents(
  readings: readonly ReplayedReading[],
  margins: { volumeL: number | null; minutes: number | null } = MARGINS,
) {
  const events: { volumeMl: number; flowS: number; leakAt: number | null; crossedAt: number | null }[] = [];
  let last: ReplayedReading | null = null;
  for (const r of readings) {
    if (!r.accepted) continue;
    if (r.volumeL <= 0 && r.flowS <= 0) continue;
    const gapMs = last === null ? Infinity : last.seq + 1 === r.seq ? 0 : r.at - r.intervalS * 1000 - last.at;
    if (gapMs >= 120_000) events.push({ volumeMl: 0, flowS: 0, leakAt: null, crossedAt: null });
    const event = events.at(-1)!;
    event.volumeMl += Math.round(r.volumeL * 1000);
    event.flowS += r.flowS;
    if (event.leakAt === null && event.flowS >= 7200) event.leakAt = r.at;
    if (
      event.crossedAt === null &&
      ((margins.volumeL !== null && event.volumeMl > margins.volumeL * 1000) ||
        (margins.minutes !== null && event.flowS > margins.minutes * 60))
    )
      event.crossedAt = r.at;
    last = r;
  }
  return events;
}

/** How many times each alert (category and cause) was raised in a zone. */
async function raised(zoneId: string): Promise<Record<string, number>> {
  const rows = await t.db
    .select({ category: alerts.category, cause: alerts.cause, n: sql<number>`sum(${alerts.count})` })
    .from(alerts)
    .where(eq(alerts.zoneId, zoneId))
    .groupBy(alerts.category, alerts.cause);
  return Object.fromEntries(rows.map((r) => [`${r.category} ${r.cause}`, Number(r.n)]));
}

describe(`real households replayed through ingest (${DAIAD_CREDIT})`, () => {
  it('the sample holds what it was cut for: a repeated hour, a gap, days of running water, a glitch', () => {
    const by = Object.fromEntries(replayed.map((h) => [h.household, h.counts]));
    expect(by.H04!.gaps).toBeGreaterThan(0);
    expect(by.H40!.refused).toBe(4);
    expect(by.H40!.negative).toBe(4);
    // The hour the clocks went back in 2016 is an hour like another in December 2026: its two
    // readings have the same time, and the second one's litres go into the next reading.
    expect(by.H01!.notAfter).toBe(1);
  });

  it('stores every accepted reading once, no refused one, and each hour as sent', async () => {
    for (const h of replayed) {
      const [stored] = await t.db
        .select({ n: sql<number>`count(*)` })
        .from(telemetryReadings)
        .where(readingsOfFlowbox(h.device.flowboxId));
      expect(Number(stored!.n), h.household).toBe(h.readings.filter((r) => r.accepted).length);
      const rows = await t.db
        .select({ hour: consumptionHourly.hour, ml: consumptionHourly.volumeMl })
        .from(consumptionHourly)
        .where(eq(consumptionHourly.flowboxId, h.device.flowboxId));
      const stored2 = new Map(rows.map((r) => [r.hour.getTime(), Number(r.ml)]));
      expect(stored2, h.household).toEqual(sentHours(h.readings));
    }
  });

  it('finds the continuous-flow days and night flows computed here from the readings sent', async () => {
    const found: Record<string, number> = {};
    for (const h of replayed) {
      const rows = await t.db
        .select({ hour: consumptionHourly.hour, volumeMl: consumptionHourly.volumeMl })
        .from(consumptionHourly)
        .where(and(eq(consumptionHourly.zoneId, h.zoneId)));
      const figures: HourFigure[] = rows.map((r) => ({ hour: r.hour, volumeMl: Number(r.volumeMl) }));
      const hours = sentHours(h.readings);
      const days = expectedContinuousDays(hours, asOf);
      found[h.household] = days.length;
      expect(continuousFlowDays(figures, DAIAD_TIMEZONE, asOf), h.household).toEqual(days);
      const nights = expectedNights(hours, asOf);
      expect(nights.length, h.household).toBeGreaterThanOrEqual(6);
      expect(
        nightFlows(figures, DAIAD_TIMEZONE, asOf).map(({ night, minLph }) => ({ night, minLph })),
        h.household,
      ).toEqual(nights);
      // The 7-night percentile at 06:00 of each morning of the replay, and at its end.
      const mornings = nights.map((n) => startOfMorning(n.night));
      for (const at of [...mornings, asOf])
        expect(
          nightPercentile(nightFlows(figures, DAIAD_TIMEZONE, at), at, DAIAD_TIMEZONE),
          `${h.household} ${new Date(at).toISOString()}`,
        ).toBe(expectedPercentile(expectedNights(hours, at), at));
      expect(
        analyseLeaks({ hours: figures, timezone: DAIAD_TIMEZONE, asOf, occupants: null }).continuousFlowDays,
      ).toEqual(days);
    }
    // Not vacuous: the household whose water never stopped has such days, the ordinary one none.
    expect(found.H10).toBeGreaterThanOrEqual(5);
    expect(found.H01).toBe(0);
  });

  it("keeps each zone's leak analytics as computed here, and one no-flow-free-hour alert per episode", async () => {
    let episodesInAll = 0;
    for (const h of replayed) {
      const hours = sentHours(h.readings);
      const res = await cmA.get(`${zonePath(h.zoneId)}/leaks`);
      expect(res.statusCode, res.body).toBe(200);
      const got = res.json() as LeakAnalytics;
      const at = Date.parse(got.as_of!);
      // The last upload's analysis (the test clock runs on between two advances: a few ms).
      const mine = uploads.get(h.household)!;
      expect(Math.abs(at - mine.at(-1)!), h.household).toBeLessThan(60_000);
      const counter = expectedCounter(hours, at);
      const nights = expectedNights(hours, at);
      const percentile = expectedPercentile(nights, at);
      expect(
        {
          hours: got.continuous_flow.hours,
          active: got.continuous_flow.active,
          days: got.continuous_flow_days,
          nights: got.nights.map((n) => ({ night: n.night, minLph: n.min_lph })),
          percentile: got.night_flow_lph,
          allowance: got.allowance_lph,
          above: got.above_allowance,
        },
        h.household,
      ).toEqual({
        hours: counter.hours,
        active: counter.hours >= 24,
        days: expectedContinuousDays(hours, at).length,
        nights,
        percentile,
        // Occupants unknown: a household of two at 2.5 L/h each.
        allowance: 5,
        above: percentile !== null && percentile > 5,
      });
      // An episode: the counter at 24 h or more at an upload, in a run that was not already so at
      // the upload before.
      let episodes = 0;
      let before: { active: boolean; since: number | null } = { active: false, since: null };
      for (const upload of mine) {
        const now = expectedCounter(hours, upload);
        const active = now.hours >= 24;
        if (active && !(before.active && before.since === now.since)) episodes += 1;
        before = { active, since: now.since };
      }
      episodesInAll += episodes;
      const raisedNow = await raised(h.zoneId);
      expect(raisedNow['leakage_detection no_flow_free_hour'] ?? 0, h.household).toBe(episodes);
    }
    // Not vacuous: the household whose water never stopped for eleven days has an episode.
    expect(episodesInAll).toBeGreaterThan(0);
  });

  it('raises one leak alert per event reaching two hours of flow and one alert per event past a margin', async () => {
    let leaks = 0;
    for (const h of replayed) {
      const events = expectedEvents(h.readings);
      const expected = {
        leaks: events.filter((e) => e.leakAt !== null).length,
        crossings: events.filter((e) => e.crossedAt !== null).length,
      };
      leaks += expected.leaks;
      const got = await raised(h.zoneId);
      expect(
        {
          leaks: got['leakage_detection continuous_flow'] ?? 0,
          crossings: got['abnormal_water_consumption_no_ac abnormal_consumption'] ?? 0,
        },
        h.household,
      ).toEqual(expected);
      // The benchmark's path, the live detection code without the server, over the same readings
      // delivered live: the same alerts (those of events that ended within an upload are about the
      // past there, acted on while running here).
      const run = runDetection(h.readings, {
        margins: { volumeMl: MARGINS.volumeL * 1000, flowS: MARGINS.minutes * 60 },
        profile: 'housing',
        openingHours: null,
        timezone: DAIAD_TIMEZONE,
      });
      expect({ leaks: run.leaks.length, crossings: run.crossings.length, past: run.past.length }).toEqual({
        ...expected,
        past: 0,
      });
    }
    expect(leaks).toBeGreaterThan(0);
  });

  it('backtests the settings in force and other margins as computed here', async () => {
    const other: { volumeL: number | null; minutes: number | null } = { volumeL: 500, minutes: null };
    const totals = { inForce: 0, proposed: 0 };
    for (const h of replayed) {
      const res = await cmA.post(`${zonePath(h.zoneId)}/automation/backtest`, {
        days: 31,
        automatic_closing: {
          automatic_closing_enabled: false,
          volume_margin_enabled: true,
          volume_margin: 500,
          duration_margin_enabled: false,
          duration_margin_minutes: null,
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      const backtest = res.json() as Backtest;
      expect(backtest.readings, h.household).toBe(h.readings.filter((r) => r.accepted).length);
      const count = (margins: typeof other) => {
        const events = expectedEvents(h.readings, margins);
        return {
          closings: 0,
          alerts:
            events.filter((e) => e.leakAt !== null).length +
            events.filter((e) => e.crossedAt !== null).length,
        };
      };
      expect({ closings: backtest.in_force.closings, alerts: backtest.in_force.alerts }, h.household).toEqual(
        count(MARGINS),
      );
      expect({ closings: backtest.proposed.closings, alerts: backtest.proposed.alerts }, h.household).toEqual(
        count(other),
      );
      totals.inForce += backtest.in_force.alerts;
      totals.proposed += backtest.proposed.alerts;
    }
    // Not vacuous: a 500 L margin and no duration margin alert less than 100 L and 60 minutes.
    expect(totals.proposed).toBeLessThan(totals.inForce);
  });
});

/** 06:00 local of a night's morning (an instant), found by walking that date's hours. */
function startOfMorning(night: string): number {
  let at = dayNumber(night) * 86_400_000 - 3 * HOUR_MS;
  while (!(local(at).date === night && local(at).hour === 6)) at += HOUR_MS / 4;
  return at;
}
