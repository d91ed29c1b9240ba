import { and, asc, eq, inArray, isNull, lte, ne, notInArray, sql, type SQL } from 'drizzle-orm';
import {
  FIRMWARE_ACTIVE_STATES,
  FIRMWARE_FAILURE_STATES,
  type FirmwareUpdateState,
  type FlowboxModel,
  type OpeningHours,
  type RolloutState,
} from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import {
  buildings,
  customers,
  firmwareRollouts,
  firmwareUpdates,
  firmwareUpdateSteps,
  flowboxes,
  sites,
  zones,
} from '../db/schema.ts';
import { insertSteps, ROWS_PER_INSERT, type NewUpdateRow } from './updates.repo.ts';
import {
  joinUp,
  withPathBelow,
  withZoneScopeOf,
  zoneScopeColumns,
  zonesUnder,
  type HierarchyNode,
  type LocatedFlowbox,
} from '../db/scope.ts';

export type RolloutRow = typeof firmwareRollouts.$inferSelect;
export type NewRolloutRow = typeof firmwareRollouts.$inferInsert;

export async function insertRollout(db: Db, values: NewRolloutRow): Promise<RolloutRow> {
  const [row] = await db.insert(firmwareRollouts).values(values).returning();
  return row!;
}

export async function findRollout(db: Db, id: string): Promise<RolloutRow | undefined> {
  const [row] = await db.select().from(firmwareRollouts).where(eq(firmwareRollouts.id, id));
  return row;
}

/** Locks the rollout until the transaction ends: its state and wave move one decision at a time. */
export async function lockRollout(db: Db, id: string): Promise<RolloutRow | undefined> {
  const [row] = await db.select().from(firmwareRollouts).where(eq(firmwareRollouts.id, id)).for('update');
  return row;
}

export async function patchRollout(db: Db, id: string, patch: Partial<NewRolloutRow>): Promise<RolloutRow> {
  const [row] = await db.update(firmwareRollouts).set(patch).where(eq(firmwareRollouts.id, id)).returning();
  return row!;
}

/**
 * Claims running rollouts for one pass of the rollout job: each locked until the pass's
 * transaction ends and skipped meanwhile by the other instances' passes (FOR UPDATE SKIP LOCKED),
 * so two instances never start the same device twice.
 */
export async function claimRunningRollouts(db: Db, limit: number): Promise<RolloutRow[]> {
  return db
    .select()
    .from(firmwareRollouts)
    .where(eq(firmwareRollouts.state, 'running'))
    .orderBy(asc(firmwareRollouts.createdAt))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/** How many of the rollout's updates are in each state, by wave. */
export async function countByWave(
  db: Db,
  rolloutId: string,
): Promise<{ wave: number; state: FirmwareUpdateState; n: number }[]> {
  const rows = await db
    .select({ wave: firmwareUpdates.wave, state: firmwareUpdates.state, n: sql<number>`count(*)::int` })
    .from(firmwareUpdates)
    .where(eq(firmwareUpdates.rolloutId, rolloutId))
    .groupBy(firmwareUpdates.wave, firmwareUpdates.state);
  return rows.map((r) => ({ wave: r.wave ?? 0, state: r.state, n: r.n }));
}

/** When each wave's first device started and its last one finished. */
export async function waveTimes(
  db: Db,
  rolloutId: string,
): Promise<{ wave: number; startedAt: Date | null; finishedAt: Date | null; open: number }[]> {
  const rows = await db
    .select({
      wave: firmwareUpdates.wave,
      startedAt: sql<
        string | null
      >`min(${firmwareUpdates.stateChangedAt}) FILTER (WHERE ${firmwareUpdates.state} <> 'scheduled')`,
      finishedAt: sql<string | null>`max(${firmwareUpdates.finishedAt})`,
      open: sql<number>`count(*) FILTER (WHERE ${firmwareUpdates.finishedAt} IS NULL)::int`,
    })
    .from(firmwareUpdates)
    .where(eq(firmwareUpdates.rolloutId, rolloutId))
    .groupBy(firmwareUpdates.wave);
  return rows.map((r) => ({
    wave: r.wave ?? 0,
    startedAt: r.startedAt ? new Date(r.startedAt) : null,
    finishedAt: r.finishedAt ? new Date(r.finishedAt) : null,
    open: r.open,
  }));
}

/**
 * Failures so far in one wave of the rollout, out of the devices that try (docs/firmware.md
 * "Automatic halt"): those left out at their turn (`skipped`) or by a cancel tried nothing, and
 * counting them would dilute a bad image's failures. `failing`: the first failed one, by serial.
 */
export async function waveFailures(
  db: Db,
  rolloutId: string,
  wave: number,
): Promise<{ failures: number; size: number; failing: string | null }> {
  const failed = inArray(firmwareUpdates.state, [...FIRMWARE_FAILURE_STATES]);
  const [row] = await db
    .select({
      failures: sql<number>`count(*) FILTER (WHERE ${failed})::int`,
      size: sql<number>`count(*) FILTER (WHERE ${notInArray(firmwareUpdates.state, ['skipped', 'cancelled'])})::int`,
      failing: sql<
        string | null
      >`(array_agg(${firmwareUpdates.flowboxId} ORDER BY ${flowboxes.serial}) FILTER (WHERE ${failed}))[1]`,
    })
    .from(firmwareUpdates)
    .innerJoin(flowboxes, eq(flowboxes.id, firmwareUpdates.flowboxId))
    .where(and(eq(firmwareUpdates.rolloutId, rolloutId), eq(firmwareUpdates.wave, wave)));
  return { failures: row?.failures ?? 0, size: row?.size ?? 0, failing: row?.failing ?? null };
}

/** The rollout's updates between `requested` and `downloaded`. */
export async function activeCount(db: Db, rolloutId: string): Promise<number> {
  return countUpdates(
    db,
    and(
      eq(firmwareUpdates.rolloutId, rolloutId),
      inArray(firmwareUpdates.state, [...FIRMWARE_ACTIVE_STATES]),
    ),
  );
}

/** Devices of the wave still waiting (scheduled), whatever their start delay. */
export async function scheduledInWave(db: Db, rolloutId: string, wave: number): Promise<number> {
  return countUpdates(
    db,
    and(
      eq(firmwareUpdates.rolloutId, rolloutId),
      eq(firmwareUpdates.wave, wave),
      eq(firmwareUpdates.state, 'scheduled'),
    ),
  );
}

/** Unfinished updates of the wave (scheduled or on their way). */
export async function openInWave(db: Db, rolloutId: string, wave: number): Promise<number> {
  return countUpdates(
    db,
    and(
      eq(firmwareUpdates.rolloutId, rolloutId),
      eq(firmwareUpdates.wave, wave),
      isNull(firmwareUpdates.finishedAt),
    ),
  );
}

/** The wave's scheduled devices whose start delay has passed, in start order. */
export async function dueScheduled(db: Db, rolloutId: string, wave: number, now: Date, limit: number) {
  return db
    .select({ update: firmwareUpdates })
    .from(firmwareUpdates)
    .where(
      and(
        eq(firmwareUpdates.rolloutId, rolloutId),
        eq(firmwareUpdates.wave, wave),
        eq(firmwareUpdates.state, 'scheduled'),
        lte(firmwareUpdates.startAfter, now),
      ),
    )
    .orderBy(asc(firmwareUpdates.startAfter), asc(firmwareUpdates.id))
    .limit(limit);
}

/** Sets the start delays of a wave's devices, from `from` plus each one's jitter. */
export async function scheduleWave(
  db: Db,
  rolloutId: string,
  wave: number,
  from: Date,
  jitterS: number,
  seed: number,
) {
  // Each device's delay is drawn in SQL from its id and the seed: one statement for a wave of any size.
  await db
    .update(firmwareUpdates)
    .set({
      startAfter: sql`${from.toISOString()}::timestamptz + make_interval(secs => floor(${jitterS} * (('x' || substr(md5(${firmwareUpdates.id}::text || ${String(seed)}), 1, 8))::bit(32)::bigint::float8 / 4294967296.0)))`,
    })
    .where(
      and(
        eq(firmwareUpdates.rolloutId, rolloutId),
        eq(firmwareUpdates.wave, wave),
        eq(firmwareUpdates.state, 'scheduled'),
      ),
    );
}

/**
 * The rollout's scheduled devices with their flowbox's serial and place, locked (their updates
 * only, not their flowboxes): cancel makes them `cancelled` all at once.
 */
export async function lockScheduledOf(db: Db, rolloutId: string) {
  return withZoneScopeOf(
    db
      .select({
        updateId: firmwareUpdates.id,
        targetVersion: firmwareUpdates.targetVersion,
        flowboxId: flowboxes.id,
        serial: flowboxes.serial,
        scope: zoneScopeColumns,
      })
      .from(firmwareUpdates)
      .innerJoin(flowboxes, eq(flowboxes.id, firmwareUpdates.flowboxId)),
    flowboxes.zoneId,
  )
    .where(and(eq(firmwareUpdates.rolloutId, rolloutId), eq(firmwareUpdates.state, 'scheduled')))
    .for('update', { of: firmwareUpdates });
}

/** Ends every scheduled device of the rollout in one statement (the caller holds them locked). */
export async function finishScheduled(
  db: Db,
  rolloutId: string,
  state: 'cancelled',
  at: Date,
): Promise<void> {
  await db
    .update(firmwareUpdates)
    .set({ state, reason: null, stateChangedAt: at, finishedAt: at })
    .where(and(eq(firmwareUpdates.rolloutId, rolloutId), eq(firmwareUpdates.state, 'scheduled')));
}

/** Flowboxes the selection names: paired, under the place, of these models. */
export async function selectFlowboxes(
  db: Db,
  place: HierarchyNode | null,
  models: FlowboxModel[],
): Promise<LocatedFlowbox[]> {
  return withZoneScopeOf(
    db.select({ flowbox: flowboxes, scope: zoneScopeColumns }).from(flowboxes),
    flowboxes.zoneId,
  )
    .where(
      and(
        eq(flowboxes.pairingState, 'ready'),
        inArray(flowboxes.model, models),
        ...(place ? [zonesUnder(place)] : []),
      ),
    )
    .orderBy(asc(flowboxes.serial));
}

/** Flowboxes among these with an unfinished update (any origin). */
export async function flowboxesUpdating(db: Db, flowboxIds: string[]): Promise<Set<string>> {
  if (flowboxIds.length === 0) return new Set();
  const rows = await db
    .select({ id: firmwareUpdates.flowboxId })
    .from(firmwareUpdates)
    .where(
      and(
        inArray(firmwareUpdates.flowboxId, flowboxIds),
        inArray(firmwareUpdates.state, [...FIRMWARE_ACTIVE_STATES]),
      ),
    );
  return new Set(rows.map((r) => r.id));
}

/** Rollouts that may still start their waiting devices: running, or paused (resumed at any time). */
const ROLLOUTS_UNDER_WAY: RolloutState[] = ['running', 'paused'];

/**
 * Flowboxes among these waiting their turn (scheduled) in a running or paused rollout other than
 * `except`: that rollout updates them (docs/firmware.md "Rollouts", `in_other_rollout`).
 */
export async function flowboxesWaitingElsewhere(
  db: Db,
  flowboxIds: string[],
  except: string | null,
): Promise<Set<string>> {
  if (flowboxIds.length === 0) return new Set();
  const rows = await db
    .select({ id: firmwareUpdates.flowboxId })
    .from(firmwareUpdates)
    .innerJoin(firmwareRollouts, eq(firmwareRollouts.id, firmwareUpdates.rolloutId))
    .where(
      and(
        inArray(firmwareUpdates.flowboxId, flowboxIds),
        eq(firmwareUpdates.state, 'scheduled'),
        inArray(firmwareRollouts.state, ROLLOUTS_UNDER_WAY),
        except ? ne(firmwareRollouts.id, except) : undefined,
      ),
    );
  return new Set(rows.map((r) => r.id));
}

/** Rollouts newest first, within a place filter, after a cursor (created_at, id). */
export async function listRollouts(
  db: Db,
  filter: { state?: RolloutState; customerId?: string; siteIds?: string[]; after?: { at: Date; id: string } },
  limit: number,
): Promise<RolloutRow[]> {
  const r = firmwareRollouts;
  return db
    .select()
    .from(r)
    .where(
      and(
        filter.state ? eq(r.state, filter.state) : undefined,
        filter.customerId ? eq(r.customerId, filter.customerId) : undefined,
        filter.siteIds
          ? inArray(
              r.siteId,
              filter.siteIds.length ? filter.siteIds : ['00000000-0000-0000-0000-000000000000'],
            )
          : undefined,
        filter.after
          ? sql`(${r.createdAt}, ${r.id}) < (${filter.after.at.toISOString()}::timestamptz, ${filter.after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(sql`${r.createdAt} DESC, ${r.id} DESC`)
    .limit(limit);
}

/** The rollout's devices with their place, by wave then serial, after a cursor (wave, serial). */
export async function listRolloutDevices(
  db: Db,
  rolloutId: string,
  filter: { state?: FirmwareUpdateState; wave?: number; after?: { wave: number; serial: string } },
  limit: number,
) {
  return withZoneScopeOf(
    db
      .select({ update: firmwareUpdates, serial: flowboxes.serial, scope: zoneScopeColumns })
      .from(firmwareUpdates)
      .innerJoin(flowboxes, eq(flowboxes.id, firmwareUpdates.flowboxId)),
    flowboxes.zoneId,
  )
    .where(
      and(
        eq(firmwareUpdates.rolloutId, rolloutId),
        filter.state ? eq(firmwareUpdates.state, filter.state) : undefined,
        filter.wave ? eq(firmwareUpdates.wave, filter.wave) : undefined,
        // Devices skipped at selection have no wave: they come first (wave 0).
        filter.after
          ? sql`(coalesce(${firmwareUpdates.wave}, 0), ${flowboxes.serial}) > (${filter.after.wave}::int, ${filter.after.serial})`
          : undefined,
      ),
    )
    .orderBy(sql`coalesce(${firmwareUpdates.wave}, 0)`, asc(flowboxes.serial))
    .limit(limit);
}

/** A rollout's devices and their first step, a few statements for thousands. */
export async function insertRolloutUpdates(db: Db, rows: NewUpdateRow[], at: Date): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT)
    await db.insert(firmwareUpdates).values(rows.slice(i, i + ROWS_PER_INSERT));
  await insertSteps(
    db,
    rows.map((r) => ({ updateId: r.id!, state: r.state, at, reason: r.reason ?? null })),
  );
}

/**
 * The place a rollout target names, if its ids form one path (zone in building in site in
 * customer), with its names for the rollout's label.
 */
export async function resolvePlace(
  db: Db,
  target: { customerId?: string; siteId?: string; buildingId?: string; zoneId?: string },
): Promise<string[] | undefined> {
  if (!target.customerId) return [];
  const [row] = await withPathBelow(
    db
      .select({ customer: customers.name, site: sites.name, building: buildings.name, zone: zones.name })
      .from(customers),
    target,
  ).where(eq(customers.id, target.customerId));
  if (!row) return undefined;
  const names = [row.customer, row.site, row.building, row.zone];
  const wanted = [target.customerId, target.siteId, target.buildingId, target.zoneId];
  if (wanted.some((id, i) => id !== undefined && names[i] === null)) return undefined;
  return names.filter((n): n is string => n !== null);
}

/** The opening hours that apply to a zone (its own, else its building's) and the building's time zone. */
export async function openingHoursOf(
  db: Db,
  zoneId: string,
): Promise<{ hours: OpeningHours | null; timezone: string } | undefined> {
  const [row] = await joinUp(
    db
      .select({ zone: zones.openingHours, building: buildings.openingHours, timezone: buildings.timezone })
      .from(zones),
    'zone',
    'building',
  ).where(eq(zones.id, zoneId));
  return row && { hours: row.zone ?? row.building, timezone: row.timezone };
}

/** Postpones a waiting device's turn, saying why. */
export async function postpone(
  db: Db,
  updateId: string,
  until: Date,
  reason: 'waiting_opening_hours',
): Promise<void> {
  await db.update(firmwareUpdates).set({ startAfter: until, reason }).where(eq(firmwareUpdates.id, updateId));
}

/**
 * The device a halt not caused by one (the image withdrawn) is alerted on, since every alert belongs
 * to a zone: the first, by wave then serial, of the devices the halt stopped (not finished).
 */
export async function haltWitness(db: Db, rolloutId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: firmwareUpdates.flowboxId })
    .from(firmwareUpdates)
    .innerJoin(flowboxes, eq(flowboxes.id, firmwareUpdates.flowboxId))
    .where(and(eq(firmwareUpdates.rolloutId, rolloutId), isNull(firmwareUpdates.finishedAt)))
    .orderBy(asc(firmwareUpdates.wave), asc(flowboxes.serial))
    .limit(1);
  return row?.id;
}

/** The highest wave of the rollout. */
export async function lastWave(db: Db, rolloutId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`coalesce(max(${firmwareUpdates.wave}), 0)::int` })
    .from(firmwareUpdates)
    .where(eq(firmwareUpdates.rolloutId, rolloutId));
  return row?.n ?? 0;
}

/** How many of the rollout's updates meet `where`. */
async function countUpdates(db: Db, where: SQL | undefined): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(firmwareUpdates)
    .where(where);
  return row?.n ?? 0;
}

/** The steps of every update of the rollout, oldest first: its states over time (rollouts.timeline.ts). */
export function rolloutSteps(db: Db, rolloutId: string) {
  return db
    .select({
      updateId: firmwareUpdateSteps.updateId,
      state: firmwareUpdateSteps.state,
      at: firmwareUpdateSteps.at,
    })
    .from(firmwareUpdateSteps)
    .innerJoin(firmwareUpdates, eq(firmwareUpdates.id, firmwareUpdateSteps.updateId))
    .where(eq(firmwareUpdates.rolloutId, rolloutId))
    .orderBy(asc(firmwareUpdateSteps.at), asc(firmwareUpdateSteps.id));
}

/**
 * Locks the flowbox's row if no one holds it, without waiting: false when a device message (or
 * anyone) holds it. The rollout job holds its rollouts when it gets here; a device message holds
 * the flowbox, then its update, then waits for the rollout (halt check): waiting here would close
 * the circle (docs/firmware.md "Lock order").
 */
export async function tryLockFlowbox(db: Db, flowboxId: string): Promise<boolean> {
  const rows = await db
    .select({ id: flowboxes.id })
    .from(flowboxes)
    .where(eq(flowboxes.id, flowboxId))
    .for('update', { skipLocked: true });
  return rows.length > 0;
}
