import { asc, eq, inArray, max } from 'drizzle-orm';
import type { FlowboxModel, WaterPointType, WaterTemperature, Weekday, ZoneProfile } from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import { withZoneScope, zonesUnder } from '../db/scope.ts';
import { appSettings, buildings, flowboxReceipts, sites, waterPoints, zones } from '../db/schema.ts';
import type { ZonePath } from '../http/params.ts';

/** What a simulated flowbox needs to know of the zone it is fitted in. */
export type FleetZone = {
  path: ZonePath;
  buildingName: string;
  name: string;
  profile: ZoneProfile;
  model: FlowboxModel;
  waterTemperature: WaterTemperature;
  timezone: string;
  weekend: Weekday[];
  waterPoints: { type: WaterPointType; nominalFlowLpm: number | null }[];
};

/** The customer's zones with their building's time and their water points, in a stable order. */
export async function zonesOfCustomer(db: Db, customerId: string): Promise<FleetZone[]> {
  const rows = await withZoneScope(
    db
      .select({
        zoneId: zones.id,
        buildingId: buildings.id,
        siteId: sites.id,
        buildingName: buildings.name,
        name: zones.name,
        profile: zones.profile,
        model: zones.flowboxModel,
        waterTemperature: zones.waterTemperature,
        timezone: buildings.timezone,
        weekend: buildings.weekend,
      })
      .from(zones),
  )
    .where(zonesUnder({ customerId }))
    .orderBy(asc(buildings.name), asc(zones.name));
  if (rows.length === 0) return [];
  const points = await db
    .select({
      zoneId: waterPoints.zoneId,
      type: waterPoints.type,
      nominalFlowLpm: waterPoints.nominalFlowLpm,
    })
    .from(waterPoints)
    .where(
      inArray(
        waterPoints.zoneId,
        rows.map((r) => r.zoneId),
      ),
    );
  return rows.map((row) => ({
    path: { customerId, siteId: row.siteId, buildingId: row.buildingId, zoneId: row.zoneId },
    buildingName: row.buildingName,
    name: row.name,
    profile: row.profile,
    model: row.model,
    waterTemperature: row.waterTemperature,
    timezone: row.timezone,
    weekend: row.weekend,
    waterPoints: points
      .filter((p) => p.zoneId === row.zoneId)
      .map((p) => ({
        type: p.type,
        nominalFlowLpm: p.nominalFlowLpm === null ? null : Number(p.nominalFlowLpm),
      })),
  }));
}

/** The highest event sequence the server applied for a flowbox: a restarted device continues after it. */
export async function lastEventSequence(db: Db, flowboxId: string): Promise<number> {
  const [row] = await db
    .select({ last: max(flowboxReceipts.sequence) })
    .from(flowboxReceipts)
    .where(eq(flowboxReceipts.flowboxId, flowboxId));
  return row?.last ?? 0;
}

/** The setting that says a demo zone's past consumption was written (src/demo/history.ts). */
const historyKey = (zoneId: string) => `demo_history:${zoneId}`;

/** Whether the zone's past consumption was written already. */
export async function hasHistory(db: Db, zoneId: string): Promise<boolean> {
  const [row] = await db
    .select()
    .from(appSettings)
    .where(eq(appSettings.key, historyKey(zoneId)));
  return row !== undefined;
}

/** Records that the zone's past consumption was written: what, from when to when. */
export async function markHistory(
  db: Db,
  zoneId: string,
  written: { flowboxId: string; from: string; until: string; readings: number },
): Promise<void> {
  await db.insert(appSettings).values({ key: historyKey(zoneId), value: written });
}
