import { and, asc, eq, isNull, lt, sql } from 'drizzle-orm';
import { PAIRING_STEP, type Flowbox } from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import { buildings, flowboxCredentials, flowboxes, flowboxReceipts, sites, zones } from '../db/schema.ts';
import type { ZonePath } from '../http/params.ts';

export type FlowboxRow = typeof flowboxes.$inferSelect;
export type NewFlowboxRow = typeof flowboxes.$inferInsert;

/** Where a flowbox sits in the hierarchy: what decides who may see it and where its events go. */
export type FlowboxScope = { customerId: string; siteId: string; buildingId: string; zoneId: string };
export type LocatedFlowbox = { flowbox: FlowboxRow; scope: FlowboxScope };

export type FlowboxPath = ZonePath & { flowboxId: string };

const located = {
  flowbox: flowboxes,
  scope: {
    customerId: sites.customerId,
    siteId: buildings.siteId,
    buildingId: zones.buildingId,
    zoneId: zones.id,
  },
};

function selectLocated(db: Db) {
  return db
    .select(located)
    .from(flowboxes)
    .innerJoin(zones, eq(zones.id, flowboxes.zoneId))
    .innerJoin(buildings, eq(buildings.id, zones.buildingId))
    .innerJoin(sites, eq(sites.id, buildings.siteId));
}

const inZone = (path: ZonePath) =>
  and(
    eq(flowboxes.zoneId, path.zoneId),
    eq(zones.buildingId, path.buildingId),
    eq(buildings.siteId, path.siteId),
    eq(sites.customerId, path.customerId),
  );

export async function listFlowboxes(db: Db, path: ZonePath): Promise<LocatedFlowbox[]> {
  return selectLocated(db).where(inZone(path)).orderBy(asc(flowboxes.serial));
}

/** The flowbox at that place in the hierarchy: under another zone, building or site it is not found. */
export async function findFlowbox(db: Db, path: FlowboxPath): Promise<LocatedFlowbox | undefined> {
  const [row] = await selectLocated(db).where(and(eq(flowboxes.id, path.flowboxId), inZone(path)));
  return row;
}

export async function findFlowboxBySerial(db: Db, serial: string): Promise<LocatedFlowbox | undefined> {
  const [row] = await selectLocated(db).where(eq(flowboxes.serial, serial));
  return row;
}

export async function findFlowboxById(db: Db, id: string): Promise<LocatedFlowbox | undefined> {
  const [row] = await selectLocated(db).where(eq(flowboxes.id, id));
  return row;
}

/** undefined when the serial is already taken (the unique index decides between concurrent calls). */
export async function insertFlowbox(db: Db, values: NewFlowboxRow): Promise<FlowboxRow | undefined> {
  const [row] = await db.insert(flowboxes).values(values).onConflictDoNothing().returning();
  return row;
}

export async function serialTaken(db: Db, serial: string): Promise<boolean> {
  const [row] = await db.select({ id: flowboxes.id }).from(flowboxes).where(eq(flowboxes.serial, serial));
  return row !== undefined;
}

export async function updateFlowbox(
  db: Db,
  id: string,
  patch: Partial<NewFlowboxRow>,
  at: Date,
): Promise<FlowboxRow> {
  const [row] = await db
    .update(flowboxes)
    .set({ ...patch, updatedAt: at })
    .where(eq(flowboxes.id, id))
    .returning();
  return row!;
}

export async function deleteFlowbox(db: Db, id: string): Promise<void> {
  await db.delete(flowboxes).where(eq(flowboxes.id, id));
}

/** Ends every live credential of the serial; the broker refuses them from the next connection on. */
export async function revokeCredentials(db: Db, serial: string, at: Date): Promise<void> {
  await db
    .update(flowboxCredentials)
    .set({ revokedAt: at })
    .where(and(eq(flowboxCredentials.serial, serial), isNull(flowboxCredentials.revokedAt)));
}

export async function insertCredential(
  db: Db,
  values: { serial: string; flowboxId: string; secretHash: string; issuedAt: Date },
): Promise<void> {
  await db.insert(flowboxCredentials).values(values);
}

/** The hash of the serial's live secret, when its flowbox still exists. */
export async function liveSecretHash(db: Db, serial: string): Promise<string | undefined> {
  const [row] = await db
    .select({ hash: flowboxCredentials.secretHash })
    .from(flowboxCredentials)
    .innerJoin(flowboxes, eq(flowboxes.id, flowboxCredentials.flowboxId))
    .where(and(eq(flowboxCredentials.serial, serial), isNull(flowboxCredentials.revokedAt)));
  return row?.hash;
}

/** Records that a message was applied; false when (flowbox, sequence) was already there (a redelivery). */
export async function claimReceipt(db: Db, flowboxId: string, sequence: number, at: Date): Promise<boolean> {
  const rows = await db
    .insert(flowboxReceipts)
    .values({ flowboxId, sequence, receivedAt: at })
    .onConflictDoNothing()
    .returning({ sequence: flowboxReceipts.sequence });
  return rows.length === 1;
}

/** Flowboxes still called connected whose last sign of life is older than `before` (missed heartbeats). */
export async function markSilentDisconnected(db: Db, before: Date, at: Date): Promise<LocatedFlowbox[]> {
  const silent = await db
    .update(flowboxes)
    .set({ connected: false, connectionChangedAt: at, updatedAt: at })
    .where(and(eq(flowboxes.connected, true), lt(flowboxes.lastSeenAt, before)))
    .returning({ id: flowboxes.id });
  if (silent.length === 0) return [];
  return selectLocated(db).where(
    sql`${flowboxes.id} IN (${sql.join(
      silent.map((s) => sql`${s.id}`),
      sql`, `,
    )})`,
  );
}

const numberOrNull = (value: string | null): number | null => (value === null ? null : Number(value));
const isoOrNull = (value: Date | null): string | null => value?.toISOString() ?? null;

export function toApiFlowbox({ flowbox: f, scope }: LocatedFlowbox): Flowbox {
  return {
    id: f.id,
    serial: f.serial,
    customer_id: scope.customerId,
    site_id: scope.siteId,
    building_id: scope.buildingId,
    zone_id: scope.zoneId,
    floor_id: f.floorId,
    pairing_state: f.pairingState,
    pairing_step: PAIRING_STEP[f.pairingState],
    paired_at: isoOrNull(f.pairedAt),
    model: f.model,
    water_temperature: f.waterTemperature,
    connection: f.connected ? 'connected' : f.connectionChangedAt ? 'disconnected' : 'never',
    connection_since: isoOrNull(f.connectionChangedAt),
    last_seen_at: isoOrNull(f.lastSeenAt),
    temperature: numberOrNull(f.temperature),
    humidity: numberOrNull(f.humidity),
    flow_lpm: numberOrNull(f.flowLpm),
    flowmeter_index_l: numberOrNull(f.flowmeterIndexL),
    valve: f.valve,
    maintenance_mode: f.maintenanceMode,
    leak_detection_mode: f.leakDetectionMode,
    network_interface: f.networkInterface,
    network_address: f.networkAddress,
    network_gateway: f.networkGateway,
    wifi_ssid: f.wifiSsid,
    esp_version: f.espVersion,
    board_version: f.boardVersion,
    firmware_version: f.firmwareVersion,
    created_at: f.createdAt.toISOString(),
  };
}
