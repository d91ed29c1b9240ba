import { and, asc, eq, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { flowboxCredentials, flowboxes, flowboxReceipts } from '../db/schema.ts';
import {
  type HierarchyNode,
  withZoneScopeOf,
  zoneAt,
  zonesUnder,
  zoneScopeColumns,
  type LocatedFlowbox,
} from '../db/scope.ts';
import type { PairingState } from '@flowbox/shared';
import type { ZonePath } from '../http/params.ts';

export type FlowboxRow = typeof flowboxes.$inferSelect;
export type NewFlowboxRow = typeof flowboxes.$inferInsert;

/** Where a flowbox sits in the hierarchy: what decides who may see it and where its events go. */

export type FlowboxPath = ZonePath & { flowboxId: string };

function selectLocated(db: Db) {
  return withZoneScopeOf(
    db.select({ flowbox: flowboxes, scope: zoneScopeColumns }).from(flowboxes),
    flowboxes.zoneId,
  );
}

export async function listFlowboxes(db: Db, path: ZonePath): Promise<LocatedFlowbox[]> {
  return selectLocated(db).where(zoneAt(path)).orderBy(asc(flowboxes.serial));
}

/** The flowbox at that place in the hierarchy: under another zone, building or site it is not found. */
export async function findFlowbox(db: Db, path: FlowboxPath): Promise<LocatedFlowbox | undefined> {
  const [row] = await selectLocated(db).where(and(eq(flowboxes.id, path.flowboxId), zoneAt(path)));
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

/**
 * The update, only while the flowbox is at one of these pairing steps: undefined when another hand
 * moved it on (the operator validated, a repeat of the device's announcement) or removed it between
 * the caller's read and this write, which then decides again on what is there now.
 */
export async function updateFlowboxAtStep(
  db: Db,
  id: string,
  steps: readonly PairingState[],
  patch: Partial<NewFlowboxRow>,
  at: Date,
): Promise<FlowboxRow | undefined> {
  const [row] = await db
    .update(flowboxes)
    .set({ ...patch, updatedAt: at })
    .where(and(eq(flowboxes.id, id), inArray(flowboxes.pairingState, [...steps])))
    .returning();
  return row;
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

/**
 * Every flowbox below the node, whatever its pairing step: a deletion of the node takes them with
 * it, foreign keys cascading from the customer down to `flowboxes.zone_id`.
 */
export async function listFlowboxesUnder(db: Db, node: HierarchyNode): Promise<LocatedFlowbox[]> {
  return selectLocated(db).where(zonesUnder(node)).orderBy(asc(flowboxes.serial));
}

/** Ends the live credentials of every flowbox below the node (before the cascade sets their flowbox_id null). */
export async function revokeCredentialsUnder(db: Db, node: HierarchyNode, at: Date): Promise<void> {
  const below = withZoneScopeOf(db.select({ id: flowboxes.id }).from(flowboxes), flowboxes.zoneId).where(
    zonesUnder(node),
  );
  await db
    .update(flowboxCredentials)
    .set({ revokedAt: at })
    .where(and(isNull(flowboxCredentials.revokedAt), inArray(flowboxCredentials.flowboxId, below)));
}

/**
 * Credentials left live by a flowbox deleted without revoking them (hierarchy deletes before the
 * fix of issue #4's follow-up): the broker refused them already, the record now says so too.
 */
export async function revokeOrphanCredentials(db: Db, at: Date): Promise<number> {
  const rows = await db
    .update(flowboxCredentials)
    .set({ revokedAt: at })
    .where(and(isNull(flowboxCredentials.revokedAt), isNull(flowboxCredentials.flowboxId)))
    .returning({ id: flowboxCredentials.id });
  return rows.length;
}

export async function insertCredential(
  db: Db,
  values: { serial: string; flowboxId: string; secretHash: string; issuedAt: Date },
): Promise<void> {
  await db.insert(flowboxCredentials).values(values);
}

/** When the serial's live secret was issued. */
export async function liveCredentialIssuedAt(db: Db, serial: string): Promise<Date | undefined> {
  const [row] = await db
    .select({ issuedAt: flowboxCredentials.issuedAt })
    .from(flowboxCredentials)
    .where(and(eq(flowboxCredentials.serial, serial), isNull(flowboxCredentials.revokedAt)));
  return row?.issuedAt;
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

/**
 * One lock for every change of device accounts on a managed broker (grants, revocations,
 * reconciliation), across instances: a reconciliation must never see an account created for a
 * credential whose transaction has not committed yet, and delete it.
 */
const DEVICE_ACCOUNTS_LOCK = 4_246_001;

export async function lockDeviceAccounts(db: Db): Promise<void> {
  await db.execute(sql`SELECT pg_advisory_xact_lock(${sql.raw(String(DEVICE_ACCOUNTS_LOCK))})`);
}

/**
 * The broker accounts the database backs, among `serials` (all when omitted): `{serial}` for a live
 * credential of an existing flowbox (what `liveSecretHash` accepts), `bootstrap.{serial}` for a
 * flowbox with a factory secret (what pairing mode accepts).
 */
export async function backedAccounts(
  db: Db,
  serials?: string[],
): Promise<{ device: Set<string>; bootstrap: Set<string> }> {
  const live = await db
    .select({ serial: flowboxCredentials.serial })
    .from(flowboxCredentials)
    .innerJoin(flowboxes, eq(flowboxes.id, flowboxCredentials.flowboxId))
    .where(
      and(
        isNull(flowboxCredentials.revokedAt),
        serials ? inArray(flowboxCredentials.serial, serials) : undefined,
      ),
    );
  const prepared = await db
    .select({ serial: flowboxes.serial })
    .from(flowboxes)
    .where(
      and(isNotNull(flowboxes.factorySecretHash), serials ? inArray(flowboxes.serial, serials) : undefined),
    );
  return { device: new Set(live.map((r) => r.serial)), bootstrap: new Set(prepared.map((r) => r.serial)) };
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
  return findFlowboxesByIds(
    db,
    silent.map((s) => s.id),
  );
}

/** The flowboxes of these ids where they sit, in no particular order (a batch's, whatever its size). */
export async function findFlowboxesByIds(db: Db, ids: readonly string[]): Promise<LocatedFlowbox[]> {
  if (ids.length === 0) return [];
  return selectLocated(db).where(inArray(flowboxes.id, [...ids]));
}
