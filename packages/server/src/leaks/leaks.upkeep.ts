import {
  analyseLeaks,
  analysisEpoch,
  analysisUnchanged,
  currentHourFlowing,
  DEFAULT_OCCUPANTS,
  type Currency,
} from '@flowbox/shared';
import { continuousFlowAlert } from '../alerts/index.ts';
import type { Context } from '../context.ts';
import type { TelemetryListener } from '../telemetry/index.ts';
import {
  hoursOf,
  leakBuilding,
  leakColumns,
  leakZones,
  lockBuildingLeaks,
  lockZoneLeaks,
  saveBuildingLeaks,
  saveZoneLeaks,
  type LeakZone,
} from './leaks.repo.ts';

/** The past read for each analysis: 31 days of hours (a month of nights for the chart). */
export const LEAK_WINDOW_MS = 31 * 86_400_000;

export type ZonePrices = (
  zoneIds: readonly string[],
) => Promise<Map<string, { perM3: number; currency: Currency }>>;

type Logger = { error: (obj: object, msg: string) => void };

export type LeakUpkeepOptions = {
  /** Rest between two passes while zones keep arriving: bounds the work under steady ingest. */
  pauseMs: number;
  log: Logger;
};

const HOUR_MS = 3_600_000;
/** Zones whose last analysis is remembered; past this the memory starts again (each recomputes once). */
const ANALYSED_MEMORY = 200_000;

/** The water a zone's new readings brought: the earliest hour written to, the hours given water. */
type Touched = { earliestHour: number; flowingHours: Set<number> };
/** What this instance's last analysis of a zone depended on besides its hours. */
type Analysed = { epoch: string; currentHourFlowing: boolean; timezone: string; occupants: number | null };

/**
 * Keeps each zone's and building's leak analytics up to date (docs/automation.md "Leak analytics").
 * After each committed telemetry batch the zones it touched are queued; one pass at a time
 * recomputes each queued zone once from its stored hours (whatever order and batches they came in,
 * backlogs included), then their buildings, and raises or resolves the zone's leak alert. Zones
 * touched during a pass wait for the next one, after `pauseMs`: the cost follows the number of
 * zones written to, not the number of readings or batches. A zone whose new water cannot change
 * its analysis (`analysisUnchanged`: water only in the hour in progress, which flowed already, in
 * the same epoch) is not recomputed: a zone in steady use is recomputed about once an hour, not
 * on every pass. Another instance's work never makes that wrong: hours only gain water.
 */
export class LeakUpkeep {
  private pending = new Map<string, Touched>();
  private readonly analysed = new Map<string, Analysed>();
  private running: Promise<void> | null = null;
  private closed = false;
  /** Ends the pause between two passes early. */
  private wake: (() => void) | null = null;

  constructor(
    private readonly ctx: Context,
    private readonly prices: ZonePrices,
    private readonly options: LeakUpkeepOptions,
  ) {}

  listener(): TelemetryListener {
    return {
      name: 'leaks.upkeep',
      afterCommit: (readings) => {
        for (const r of readings) {
          const hour = Math.floor(r.measuredAt.getTime() / HOUR_MS) * HOUR_MS;
          let touched = this.pending.get(r.zoneId);
          if (!touched) {
            touched = { earliestHour: hour, flowingHours: new Set() };
            this.pending.set(r.zoneId, touched);
          } else if (hour < touched.earliestHour) touched.earliestHour = hour;
          if (r.volumeMl > 0) touched.flowingHours.add(hour);
        }
        this.start();
      },
    };
  }

  /** Runs the waiting zones without the pause and resolves once none waits (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) {
      this.wake?.();
      await this.running;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.idle();
  }

  private start(): void {
    if (this.running || this.closed || this.pending.size === 0) return;
    this.running = this.drain().finally(() => {
      this.running = null;
    });
  }

  private async drain(): Promise<void> {
    while (this.pending.size > 0 && !this.closed) {
      const touched = this.pending;
      this.pending = new Map();
      try {
        await this.refreshTouched(touched);
      } catch (error) {
        this.options.log.error({ err: error }, 'leak analytics failed');
      }
      if (this.pending.size > 0 && this.options.pauseMs > 0 && !this.closed)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.options.pauseMs);
          timer.unref();
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      this.wake = null;
    }
  }

  /** Recomputes these zones and their buildings now. */
  async refresh(zoneIds: readonly string[]): Promise<void> {
    await this.refreshTouched(new Map(zoneIds.map((id) => [id, null])));
  }

  /** Recomputes the zones whose new water may change their analysis (null: whatever it was), and their buildings. */
  private async refreshTouched(touched: ReadonlyMap<string, Touched | null>): Promise<void> {
    const asOf = this.ctx.now();
    const zones = (await leakZones(this.ctx.db, [...touched.keys()])).filter(
      (zone) => !this.unchanged(zone, touched.get(zone.zoneId) ?? null, asOf),
    );
    if (zones.length === 0) return;
    const prices = await this.prices(zones.map((z) => z.zoneId));
    for (const zone of zones) await this.refreshZone(zone, prices.get(zone.zoneId) ?? null);
    for (const buildingId of new Set(zones.map((z) => z.buildingId))) await this.refreshBuilding(buildingId);
  }

  private unchanged(zone: LeakZone, water: Touched | null, asOf: Date): boolean {
    const before = this.analysed.get(zone.zoneId);
    if (!water || !before || before.timezone !== zone.timezone || before.occupants !== zone.occupants)
      return false;
    return analysisUnchanged(before, { asOf, timezone: zone.timezone }, water);
  }

  private window(): { from: Date; asOf: Date } {
    const asOf = this.ctx.now();
    const from = new Date(Math.floor((asOf.getTime() - LEAK_WINDOW_MS) / HOUR_MS) * HOUR_MS);
    return { from, asOf };
  }

  private async refreshZone(
    zone: LeakZone,
    price: { perM3: number; currency: Currency } | null,
  ): Promise<void> {
    const analysed = await this.ctx.db.transaction(async (tx) => {
      const before = await lockZoneLeaks(tx, zone.zoneId);
      const { from, asOf } = this.window();
      const hours = await hoursOf(tx, [zone.zoneId], from, new Date(asOf.getTime() + HOUR_MS));
      const analysis = analyseLeaks({
        hours,
        timezone: zone.timezone,
        asOf,
        occupants: zone.occupants,
        pricePerM3: price?.perM3 ?? null,
      });
      await saveZoneLeaks(tx, zone.zoneId, leakColumns(analysis, asOf));
      await continuousFlowAlert(tx, {
        zoneId: zone.zoneId,
        before: before && {
          hours: before.continuousHours,
          since: before.continuousSince?.toISOString() ?? null,
          atLeast: before.continuousAtLeast,
        },
        analysis,
        currency: price?.currency ?? null,
        at: asOf,
      });
      return {
        epoch: analysisEpoch(asOf, zone.timezone),
        currentHourFlowing: currentHourFlowing(hours, asOf),
        timezone: zone.timezone,
        occupants: zone.occupants,
      };
    });
    // Remembered once committed: a pass that rolled back is done again.
    if (this.analysed.size >= ANALYSED_MEMORY) this.analysed.clear();
    this.analysed.set(zone.zoneId, analysed);
  }

  private async refreshBuilding(buildingId: string): Promise<void> {
    await this.ctx.db.transaction(async (tx) => {
      await lockBuildingLeaks(tx, buildingId);
      const building = await leakBuilding(tx, buildingId);
      if (!building) return;
      const { from, asOf } = this.window();
      const hours = await hoursOf(
        tx,
        building.zones.map((z) => z.zoneId),
        from,
        new Date(asOf.getTime() + HOUR_MS),
      );
      // The building's own count, or its zones' (each unknown one a household).
      const occupants =
        building.occupants ?? building.zones.reduce((sum, z) => sum + (z.occupants ?? DEFAULT_OCCUPANTS), 0);
      const analysis = analyseLeaks({ hours, timezone: building.timezone, asOf, occupants });
      await saveBuildingLeaks(tx, buildingId, leakColumns(analysis, asOf));
    });
  }
}
