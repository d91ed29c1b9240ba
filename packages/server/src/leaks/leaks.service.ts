import { DEFAULT_OCCUPANTS, nightAllowanceLph, type Currency, type LeakAnalytics } from '@flowbox/shared';
import { requireConsumptionRead, requireSiteManagerRead, type Actor } from '../access/access.ts';
import { requireBuildingRow } from '../buildings/index.ts';
import type { Context } from '../context.ts';
import { notFound } from '../errors.ts';
import type { BuildingPath, ZonePath } from '../http/params.ts';
import {
  buildingZoneLeaks,
  findBuildingLeaks,
  findZoneLeaks,
  leakBuilding,
  leakZoneOnPath,
  type BuildingLeakRow,
  type LeakRow,
} from './leaks.repo.ts';
import type { ZonePrices } from './leaks.upkeep.ts';

type StoredLeaks = Omit<LeakRow, 'zoneId'> | Omit<BuildingLeakRow, 'buildingId'>;

/** The analytics as the API says them; a scope without figures yet says nothing is flowing. */
function toApi(
  row: StoredLeaks | null,
  timezone: string,
  occupants: number | null,
  cost: { amount: number; currency: Currency } | null,
): LeakAnalytics {
  return {
    as_of: row?.asOf.toISOString() ?? null,
    timezone,
    continuous_flow: {
      hours: row?.continuousHours ?? 0,
      active: (row?.continuousHours ?? 0) >= 24,
      since: row?.continuousSince?.toISOString() ?? null,
      at_least: row?.continuousAtLeast ?? false,
      floor_lph: row?.continuousFloorLph ?? null,
    },
    continuous_flow_days: row?.continuousFlowDays ?? 0,
    nights: (row?.nights ?? []).map((n) => ({ night: n.night, min_lph: n.minLph, hour: n.hour })),
    night_flow_lph: row?.nightFlowLph ?? null,
    allowance_lph: row?.allowanceLph ?? nightAllowanceLph(occupants),
    occupants,
    above_allowance: row?.aboveAllowance ?? false,
    loss_lph: row?.lossLph ?? 0,
    loss_litres_per_day: row?.lossLitresDay ?? 0,
    loss_cost_per_day: cost === null ? null : cost.amount.toFixed(2),
    currency: cost?.currency ?? null,
  };
}

/** Leak analytics of a zone or a building (issue 29), read with the consumption's access rules. */
export class LeaksService {
  constructor(
    private readonly ctx: Context,
    private readonly prices: ZonePrices,
  ) {}

  /** A zone's: whoever reads its consumption (its end users too). */
  async zone(actor: Actor, path: ZonePath): Promise<LeakAnalytics> {
    requireConsumptionRead(actor, path);
    const zone = await leakZoneOnPath(this.ctx.db, path);
    if (!zone) throw notFound();
    const row = await findZoneLeaks(this.ctx.db, path.zoneId);
    const price = (await this.prices([path.zoneId])).get(path.zoneId);
    const cost =
      row && price ? { amount: (row.lossLitresDay / 1000) * price.perM3, currency: price.currency } : null;
    return toApi(row, zone.timezone, zone.occupants, cost);
  }

  /** A building's: its managers' (like its consumption); its cost is its zones' losses, each priced. */
  async building(actor: Actor, path: BuildingPath): Promise<LeakAnalytics> {
    requireSiteManagerRead(actor, path.customerId, path.siteId);
    await requireBuildingRow(this.ctx.db, path);
    const [building, row, zoneRows] = await Promise.all([
      leakBuilding(this.ctx.db, path.buildingId),
      findBuildingLeaks(this.ctx.db, path.buildingId),
      buildingZoneLeaks(this.ctx.db, path.buildingId),
    ]);
    if (!building) throw notFound();
    const prices = await this.prices(zoneRows.map((z) => z.zoneId));
    // Amounts in two currencies do not add up: the building's cost is then not said.
    const priced = zoneRows.flatMap((z) => {
      const price = prices.get(z.zoneId);
      return price ? [{ amount: (z.lossLitresDay / 1000) * price.perM3, currency: price.currency }] : [];
    });
    const currencies = new Set(priced.map((p) => p.currency));
    const cost =
      priced.length > 0 && currencies.size === 1
        ? { amount: priced.reduce((sum, p) => sum + p.amount, 0), currency: priced[0]!.currency }
        : null;
    const occupants =
      building.occupants ??
      (building.zones.every((z) => z.occupants === null)
        ? null
        : building.zones.reduce((sum, z) => sum + (z.occupants ?? DEFAULT_OCCUPANTS), 0));
    return toApi(row, building.timezone, occupants, cost);
  }
}
