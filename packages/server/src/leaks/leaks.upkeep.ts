import { analyseLeaks, DEFAULT_OCCUPANTS, type Currency } from '@flowbox/shared';
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

/**
 * Keeps each zone's and building's leak analytics up to date (docs/automation.md "Leak analytics").
 * After each committed telemetry batch the zones it touched are queued; one pass at a time
 * recomputes each queued zone once from its stored hours (whatever order and batches they came in,
 * backlogs included), then their buildings, and raises or resolves the zone's leak alert. Zones
 * touched during a pass wait for the next one, after `pauseMs`: the cost follows the number of
 * zones written to, not the number of readings or batches.
 */
export class LeakUpkeep {
  private readonly pending = new Set<string>();
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
        for (const r of readings) this.pending.add(r.zoneId);
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
      const zoneIds = [...this.pending];
      this.pending.clear();
      try {
        await this.refresh(zoneIds);
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
    const zones = await leakZones(this.ctx.db, zoneIds);
    const prices = await this.prices(zones.map((z) => z.zoneId));
    for (const zone of zones) await this.refreshZone(zone, prices.get(zone.zoneId) ?? null);
    for (const buildingId of new Set(zones.map((z) => z.buildingId))) await this.refreshBuilding(buildingId);
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
    await this.ctx.db.transaction(async (tx) => {
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
    });
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
