import type { FlowboxCommandName } from '@flowbox/shared';
import { and, desc, eq, gt, gte, inArray, lte, ne, notInArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { deviceCommands, flowboxes } from '../db/schema.ts';

export type CommandRow = typeof deviceCommands.$inferSelect;
export type NewCommandRow = typeof deviceCommands.$inferInsert;
/** An API command's row: every command but `update_firmware`, which its firmware update speaks for. */
export type ApiCommandRow = CommandRow & { name: FlowboxCommandName };

/** A command in one of these is still on its way: it may be sent, acknowledged or expire. */
export const OPEN_STATUSES = ['pending', 'sent', 'acked'] as const;

export async function insertCommand<N extends CommandRow['name']>(
  db: Db,
  values: NewCommandRow & { name: N },
): Promise<CommandRow & { name: N }> {
  const [row] = await db.insert(deviceCommands).values(values).returning();
  return row as CommandRow & { name: N };
}

export async function findCommand(db: Db, id: string): Promise<CommandRow | undefined> {
  const [row] = await db.select().from(deviceCommands).where(eq(deviceCommands.id, id));
  return row;
}

/** The flowbox's latest API commands, newest first (firmware commands are their updates'). */
export async function listCommands(db: Db, flowboxId: string, limit: number): Promise<ApiCommandRow[]> {
  const rows = await db
    .select()
    .from(deviceCommands)
    .where(and(eq(deviceCommands.flowboxId, flowboxId), ne(deviceCommands.name, 'update_firmware')))
    .orderBy(desc(deviceCommands.issuedAt))
    .limit(limit);
  return rows as ApiCommandRow[];
}

/**
 * Whether a valve command (the user's or the system's) is still on its way to the flowbox and not
 * yet past its expiry. The flowbox's row is locked until the transaction ends, so two requests
 * made at once cannot both find none.
 */
export async function valveCommandOnItsWay(db: Db, flowboxId: string, now: Date): Promise<boolean> {
  await db.select({ id: flowboxes.id }).from(flowboxes).where(eq(flowboxes.id, flowboxId)).for('update');
  const [open] = await db
    .select({ id: deviceCommands.id })
    .from(deviceCommands)
    .where(
      and(
        eq(deviceCommands.flowboxId, flowboxId),
        inArray(deviceCommands.name, ['valve_open', 'valve_close']),
        inArray(deviceCommands.status, [...OPEN_STATUSES]),
        gt(deviceCommands.expiresAt, now),
      ),
    )
    .limit(1);
  return open !== undefined;
}

/** Locks those of these commands that are still open, in id order, until the transaction ends. */
export async function lockOpenCommands(db: Db, ids: readonly string[]): Promise<CommandRow[]> {
  return db
    .select()
    .from(deviceCommands)
    .where(and(inArray(deviceCommands.id, [...ids]), inArray(deviceCommands.status, [...OPEN_STATUSES])))
    .orderBy(deviceCommands.id)
    .for('update');
}

/**
 * Claims up to `limit` open commands due at `now`, each with its flowbox's serial: locked until the
 * transaction ends, and skipped by the other instances' passes meanwhile (FOR UPDATE SKIP LOCKED).
 */
export async function claimDueCommands(db: Db, now: Date, limit: number) {
  return db
    .select({ command: deviceCommands, serial: flowboxes.serial })
    .from(deviceCommands)
    .innerJoin(flowboxes, eq(flowboxes.id, deviceCommands.flowboxId))
    .where(and(inArray(deviceCommands.status, [...OPEN_STATUSES]), lte(deviceCommands.nextAttemptAt, now)))
    .orderBy(deviceCommands.nextAttemptAt)
    .limit(limit)
    .for('update', { of: deviceCommands, skipLocked: true });
}

/** Locks the command, when it is this device's, until the transaction ends. */
export async function lockDeviceCommand(
  db: Db,
  commandId: string,
  serial: string,
): Promise<CommandRow | undefined> {
  const [found] = await db
    .select({ command: deviceCommands })
    .from(deviceCommands)
    .innerJoin(flowboxes, eq(flowboxes.id, deviceCommands.flowboxId))
    .where(and(eq(deviceCommands.id, commandId), eq(flowboxes.serial, serial)))
    .for('update', { of: deviceCommands });
  return found?.command;
}

export async function updateCommand(db: Db, id: string, patch: Partial<NewCommandRow>): Promise<CommandRow> {
  const [row] = await db.update(deviceCommands).set(patch).where(eq(deviceCommands.id, id)).returning();
  return row!;
}

/** Marks the flowbox's autotest command done with its outcome, unless it was refused or expired. */
export async function completeAutotest(
  db: Db,
  commandId: string,
  flowboxId: string,
  outcome: Record<string, unknown>,
  at: Date,
): Promise<ApiCommandRow | undefined> {
  const [row] = await db
    .update(deviceCommands)
    .set({ status: 'done', result: outcome, completedAt: at })
    .where(
      and(
        eq(deviceCommands.id, commandId),
        eq(deviceCommands.flowboxId, flowboxId),
        eq(deviceCommands.name, 'autotest'),
        notInArray(deviceCommands.status, ['refused', 'expired']),
      ),
    )
    .returning();
  return row as ApiCommandRow | undefined;
}

/** The system's valve closes to these flowboxes issued since `since` and still on their way. */
export async function openSystemClosesSince(db: Db, flowboxIds: string[], since: Date): Promise<string[]> {
  if (flowboxIds.length === 0) return [];
  const rows = await db
    .select({ id: deviceCommands.id })
    .from(deviceCommands)
    .where(
      and(
        inArray(deviceCommands.flowboxId, flowboxIds),
        eq(deviceCommands.name, 'valve_close'),
        eq(deviceCommands.origin, 'system'),
        inArray(deviceCommands.status, [...OPEN_STATUSES]),
        gte(deviceCommands.issuedAt, since),
      ),
    );
  return rows.map((r) => r.id);
}

/** Every valve close to these flowboxes issued since `since`, whoever asked, with its status. */
export async function valveClosesSince(db: Db, flowboxIds: string[], since: Date) {
  if (flowboxIds.length === 0) return [];
  return db
    .select({ flowboxId: deviceCommands.flowboxId, status: deviceCommands.status })
    .from(deviceCommands)
    .where(
      and(
        inArray(deviceCommands.flowboxId, flowboxIds),
        eq(deviceCommands.name, 'valve_close'),
        gte(deviceCommands.issuedAt, since),
      ),
    );
}
