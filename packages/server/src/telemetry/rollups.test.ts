import { readingFlowboxId, readingsOfFlowboxes } from '../db/readings.ts';
import { getTableColumns, inArray } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumptionDaily, consumptionHourly, telemetryReadings } from '../db/schema.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { TelemetryHooks } from './hooks.ts';
import { createZones, pairDirectly, reading, type PairedDevice } from './testing.ts';
import { dayOf, hourOf } from './time.ts';
import { TelemetryWriter } from './writer.ts';

let t: TestApp;
const log = { warn: () => undefined, error: () => undefined };
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const HOUR = 3_600_000;

describe('daily rollups across a change of daylight saving time', () => {
  it.each([
    // zone, local midnight of the day (UTC), next local midnight (UTC), hours in that day
    ['Europe/Paris', '2026-03-29', '2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z', 23],
    ['Europe/Paris', '2026-10-25', '2026-10-24T22:00:00.000Z', '2026-10-25T23:00:00.000Z', 25],
    ['America/New_York', '2026-03-08', '2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z', 23],
    ['America/New_York', '2026-11-01', '2026-11-01T04:00:00.000Z', '2026-11-02T05:00:00.000Z', 25],
  ])('%s on %s: each hour of the local day counted in it', async (timezone, day, from, to, hours) => {
    const [zone] = await createZones(t.db, timezone);
    const device = await pairDirectly(t.db, zone!);
    const writer = new TelemetryWriter(t.services.context, new TelemetryHooks(), log);
    // Hourly readings, each covering the hour before its `at`, from the last hour of the day before
    // to the first hour of the day after.
    const start = Date.parse(from);
    const end = Date.parse(to);
    const readings = [];
    for (let at = start, seq = 1; at <= end + HOUR; at += HOUR, seq++)
      readings.push(reading(seq, new Date(at), 1, 3600));
    await Promise.all(readings.map((r) => writer.submit(device.serial, r)));
    const days = await t.db
      .select({
        day: consumptionDaily.day,
        readings: consumptionDaily.readings,
        volumeMl: consumptionDaily.volumeMl,
      })
      .from(consumptionDaily)
      .where(inArray(consumptionDaily.flowboxId, [device.flowboxId]))
      .orderBy(consumptionDaily.day);
    expect(days).toHaveLength(3);
    expect(days[1]).toEqual({ day, readings: hours, volumeMl: hours * 1000 });
    expect(days[0]!.readings).toBe(1);
    expect(days[2]!.readings).toBe(1);
  });
});

type Sent = { device: number; seq: number; minute: number; liters: number; temperature: number | null };

describe('rollups', () => {
  it('equal a recomputation from the raw readings, whatever the order, duplicates and batching', async () => {
    const paris = await createZones(t.db, 'Europe/Paris', 2);
    const newYork = await createZones(t.db, 'America/New_York', 1);
    const zones = [...paris, ...newYork];
    // Readings around the spring change of both zones (New York on the 8th, Paris on the 29th).
    const bases = [Date.parse('2026-03-07T20:00:00.000Z'), Date.parse('2026-03-28T20:00:00.000Z')];
    const sentArb = fc.record({
      device: fc.integer({ min: 0, max: 3 }),
      seq: fc.integer({ min: 1, max: 40 }),
      minute: fc.integer({ min: 0, max: 48 * 60 }),
      liters: fc.integer({ min: 0, max: 90_000 }).map((ml) => ml / 1000),
      temperature: fc.option(fc.integer({ min: -400, max: 1250 }).map((d) => d / 10)),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(sentArb, { minLength: 1, maxLength: 120 }),
        fc.integer({ min: 0, max: 1 }),
        fc.array(fc.integer({ min: 1, max: 25 }), { minLength: 1, maxLength: 10 }),
        fc.integer({ min: 1, max: 200 }),
        async (stream, baseIndex, chunks, maxBatch) => {
          const devices: PairedDevice[] = [];
          for (let i = 0; i < 4; i++) devices.push(await pairDirectly(t.db, zones[i % zones.length]!));
          const base = bases[baseIndex]!;
          // A device sends one content per seq: a duplicate is the same message again.
          const first = new Map<string, Sent>();
          for (const s of stream)
            if (!first.has(`${s.device}|${s.seq}`)) first.set(`${s.device}|${s.seq}`, s);
          const messages = stream.map((s) => first.get(`${s.device}|${s.seq}`)!);
          const writer = new TelemetryWriter(t.services.context, new TelemetryHooks(), log, { maxBatch });
          // In chunks sent together (one batch or several), one chunk after the other.
          let at = 0;
          for (let c = 0; at < messages.length; c++) {
            const size = chunks[c % chunks.length]!;
            await Promise.all(
              messages.slice(at, at + size).map((s) =>
                writer.submit(devices[s.device]!.serial, {
                  ...reading(s.seq, new Date(base + s.minute * 60_000), s.liters, 60),
                  temperature_c: s.temperature,
                }),
              ),
            );
            at += size;
          }
          const ids = devices.map((d) => d.flowboxId);
          const raw = await t.db
            .select({ ...getTableColumns(telemetryReadings), flowboxId: readingFlowboxId })
            .from(telemetryReadings)
            .where(readingsOfFlowboxes(ids));
          expect(raw).toHaveLength(first.size);
          const tz = new Map(
            devices.map((d) => [
              d.flowboxId,
              d.zone.zoneId === newYork[0]!.zoneId ? 'America/New_York' : 'Europe/Paris',
            ]),
          );

          const expectedHours = new Map<
            string,
            {
              volumeMl: number;
              readings: number;
              tMin: number | null;
              tMax: number | null;
              tCount: number;
            }
          >();
          const expectedDays = new Map<string, { volumeMl: number; readings: number }>();
          for (const r of raw) {
            const hk = `${r.zoneId}|${hourOf(r.measuredAt).toISOString()}|${r.flowboxId}`;
            const h = expectedHours.get(hk) ?? {
              volumeMl: 0,
              readings: 0,
              tMin: null,
              tMax: null,
              tCount: 0,
            };
            h.volumeMl += r.volumeMl;
            h.readings += 1;
            if (r.temperatureC !== null) {
              h.tMin = h.tMin === null ? r.temperatureC : Math.min(h.tMin, r.temperatureC);
              h.tMax = h.tMax === null ? r.temperatureC : Math.max(h.tMax, r.temperatureC);
              h.tCount += 1;
            }
            expectedHours.set(hk, h);
            const dk = `${r.zoneId}|${dayOf(r.measuredAt, tz.get(r.flowboxId)!)}|${r.flowboxId}`;
            const d = expectedDays.get(dk) ?? { volumeMl: 0, readings: 0 };
            d.volumeMl += r.volumeMl;
            d.readings += 1;
            expectedDays.set(dk, d);
          }
          const hours = await t.db
            .select()
            .from(consumptionHourly)
            .where(inArray(consumptionHourly.flowboxId, ids));
          const days = await t.db
            .select()
            .from(consumptionDaily)
            .where(inArray(consumptionDaily.flowboxId, ids));
          expect(
            new Map(
              hours.map((h) => [
                `${h.zoneId}|${h.hour.toISOString()}|${h.flowboxId}`,
                {
                  volumeMl: h.volumeMl,
                  readings: h.readings,
                  tMin: h.temperatureMin,
                  tMax: h.temperatureMax,
                  tCount: h.temperatureCount,
                },
              ]),
            ),
          ).toEqual(expectedHours);
          expect(
            new Map(
              days.map((d) => [
                `${d.zoneId}|${d.day}|${d.flowboxId}`,
                { volumeMl: d.volumeMl, readings: d.readings },
              ]),
            ),
          ).toEqual(expectedDays);
        },
      ),
      { numRuns: 25 },
    );
  });
});
