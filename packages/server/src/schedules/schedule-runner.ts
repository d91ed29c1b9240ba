import type { EventAction, ScheduleLiveChange } from '@flowbox/shared';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import { recordEvent } from '../events/index.ts';
import { listFlowboxes } from '../flowboxes/index.ts';
import { notifyScheduleChange } from './live.ts';
import { windowsRunningAt, type Window } from './occurrences.ts';
import {
  claimClosing,
  claimDueOpenings,
  findZoneById,
  markOpened,
  otherWindowRunning,
  schedulesAround,
  setCloseCommands,
  type ScheduleRow,
  type ScheduleRunRow,
  type ScheduleZone,
  valuesOf,
} from './schedules.repo.ts';
import { isZoneLocked } from '../automation/index.ts';
import type { CommandsService } from '../flowboxes/commands.service.ts';

type RunAction = Extract<
  EventAction,
  'scheduled_closing_started' | 'scheduled_closing_ended' | 'scheduled_opening_skipped'
>;

const LIVE_CHANGE: Record<RunAction, ScheduleLiveChange> = {
  scheduled_closing_started: 'closing_started',
  scheduled_closing_ended: 'closing_ended',
  scheduled_opening_skipped: 'opening_skipped',
};

/** How long an opening is re-sent to a device that does not answer before it expires. */
const OPEN_COMMAND_TTL_MS = 3_600_000;
/** Openings handled per pass; the rest wait for the next pass. */
const OPEN_BATCH = 100;

/**
 * The scheduled-closing job (DESIGN.md §2, docs/schedules.md). Each pass, on every instance:
 * 1. every window running now whose closing has not run is claimed (one `schedule_runs` row per
 *    window, INSERT ... ON CONFLICT DO NOTHING) and its close commands queued in that transaction;
 * 2. every claimed window that has ended is opened, rows claimed with FOR UPDATE SKIP LOCKED.
 * So each closing and each opening happens once, whatever the number of instances, and a restart
 * continues where the last pass stopped. A window that began and ended while no instance ran is
 * not replayed; one still running when an instance comes back is closed late.
 */
export class ScheduleRunner {
  constructor(
    private readonly ctx: Context,
    private readonly commands: CommandsService,
  ) {}

  /** One pass at the clock's now; returns how many closings and openings it ran. */
  async runDue(): Promise<{ closed: number; opened: number }> {
    const now = this.ctx.now();
    let closed = 0;
    for (const { schedule, zone } of await schedulesAround(this.ctx.db, now)) {
      for (const window of windowsRunningAt(valuesOf(schedule), zone.timezone, now)) {
        if (await this.close(schedule, zone, window, now)) closed++;
      }
    }
    const opened = await this.openEnded(now);
    if (closed + opened > 0) await this.commands.dispatchDue();
    return { closed, opened };
  }

  private async close(
    schedule: ScheduleRow,
    zone: ScheduleZone,
    window: Window,
    now: Date,
  ): Promise<boolean> {
    return this.ctx.db.transaction(async (tx) => {
      const run = await claimClosing(tx, {
        scheduleId: schedule.id,
        zoneId: zone.id,
        label: schedule.label,
        occurrenceStart: window.start,
        occurrenceEnd: window.end,
        closedAt: now,
        closeCommands: 0,
      });
      if (!run) return false;
      const sent = await this.queueValve(tx, zone, 'valve_close', now, window.end);
      await setCloseCommands(tx, run.id, sent);
      await this.record(tx, zone, run, 'scheduled_closing_started', now, sent === 0 ? ['no_flowbox'] : []);
      return true;
    });
  }

  private async openEnded(now: Date): Promise<number> {
    return this.ctx.db.transaction(async (tx) => {
      const due = await claimDueOpenings(tx, now, OPEN_BATCH);
      for (const run of due) await this.open(tx, run, now);
      return due.length;
    });
  }

  /** A scheduled opening never opens a zone locked by automatic closing, nor one another window keeps closed. */
  private async open(db: Db, run: ScheduleRunRow, now: Date): Promise<void> {
    const zone = await findZoneById(db, run.zoneId);
    if (!zone) return markOpened(db, run.id, now, 'opened');
    if (await isZoneLocked(db, zone.id)) {
      await markOpened(db, run.id, now, 'locked');
      return this.record(db, zone, run, 'scheduled_opening_skipped', now, ['automatic_closing']);
    }
    if (await otherWindowRunning(db, run, now)) {
      await markOpened(db, run.id, now, 'overlapped');
      return this.record(db, zone, run, 'scheduled_opening_skipped', now, ['other_window_running']);
    }
    const sent = await this.queueValve(
      db,
      zone,
      'valve_open',
      now,
      new Date(now.getTime() + OPEN_COMMAND_TTL_MS),
    );
    await markOpened(db, run.id, now, 'opened');
    await this.record(db, zone, run, 'scheduled_closing_ended', now, sent === 0 ? ['no_flowbox'] : []);
  }

  /** Queues the command for each paired flowbox of the zone; returns how many. */
  private async queueValve(
    db: Db,
    zone: ScheduleZone,
    name: 'valve_open' | 'valve_close',
    now: Date,
    expiresAt: Date,
  ): Promise<number> {
    const ready = (await listFlowboxes(db, zone.path)).filter((f) => f.flowbox.pairingState === 'ready');
    for (const located of ready) await this.commands.queueSystem(db, located, name, now, expiresAt);
    return ready.length;
  }

  /** The activity-log line and the live message of what the pass did, in its transaction. */
  private async record(
    db: Db,
    zone: ScheduleZone,
    run: ScheduleRunRow,
    action: RunAction,
    now: Date,
    changedFields: string[],
  ): Promise<void> {
    await notifyScheduleChange(db, zone, LIVE_CHANGE[action], run.scheduleId);
    await recordEvent(db, now, {
      action,
      object: 'schedule',
      objectId: run.scheduleId,
      objectLabel: run.label,
      scope: {
        customerId: zone.path.customerId,
        siteId: zone.path.siteId,
        buildingId: zone.path.buildingId,
        zoneId: zone.id,
      },
      by: null,
      origin: 'system',
      changedFields,
    });
  }
}
