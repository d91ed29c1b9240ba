import { typedNameMatches } from '@flowbox/shared';
import type { Occurrence, Occurrences, Schedule, ScheduleValues } from '@flowbox/shared';
import { requireZoneManage, requireZoneRead, type Actor } from '../access/access.ts';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import { AppError, namesMismatch, notFound } from '../errors.ts';
import { recordChange } from '../events/index.ts';
import type { ZonePath } from '../http/params.ts';
import { notifyScheduleChange } from './live.ts';
import { windowsAfter } from './occurrences.ts';
import {
  deleteSchedule,
  findSchedule,
  findScheduleZone,
  insertSchedule,
  listSchedules,
  toApiSchedule,
  updateSchedule,
  valuesOf,
  type ScheduleRow,
  type ScheduleZone,
} from './schedules.repo.ts';
import { isZoneLocked } from '../automation/index.ts';

export type SchedulePath = ZonePath & { scheduleId: string };

/**
 * Scheduled closings of a zone (spec §3 Schedule, issue #8): read like their site, changed with
 * `schedules.manage`, created and edited only where the zone allows scheduled closings.
 */
export class SchedulesService {
  constructor(private readonly ctx: Context) {}

  async list(actor: Actor, path: ZonePath): Promise<{ items: Schedule[]; total: number }> {
    requireZoneRead(actor, path);
    const zone = await this.findZone(path);
    const rows = await listSchedules(this.ctx.db, zone.id);
    return { items: rows.map((row) => toApiSchedule(row, zone.timezone)), total: rows.length };
  }

  async info(actor: Actor, path: SchedulePath): Promise<Schedule> {
    requireZoneRead(actor, path);
    const zone = await this.findZone(path);
    return toApiSchedule(await this.find(zone, path.scheduleId), zone.timezone);
  }

  /** The next windows of all the zone's schedules, running ones first, in time order. */
  async occurrences(actor: Actor, path: ZonePath, limit: number): Promise<Occurrences> {
    requireZoneRead(actor, path);
    const zone = await this.findZone(path);
    const now = this.ctx.now();
    const items: Occurrence[] = [];
    for (const row of await listSchedules(this.ctx.db, zone.id)) {
      for (const w of windowsAfter(valuesOf(row), zone.timezone, now, limit)) {
        items.push({
          schedule_id: row.id,
          label: row.label,
          start: w.start.toISOString(),
          end: w.end.toISOString(),
          local_start: w.localStart,
          local_end: w.localEnd,
          status: w.start <= now ? 'running' : 'upcoming',
        });
      }
    }
    items.sort((a, b) => a.start.localeCompare(b.start) || a.label.localeCompare(b.label));
    return {
      timezone: zone.timezone,
      scheduled_closing_authorised: zone.scheduledClosingAuthorised,
      items: items.slice(0, limit),
    };
  }

  async create(actor: Actor, path: ZonePath, values: ScheduleValues): Promise<Schedule> {
    requireZoneManage(actor, path, 'schedules.manage');
    const zone = await this.changeableZone(path);
    const row = await this.ctx.db.transaction(async (tx) => {
      const created = await insertSchedule(tx, zone.id, values);
      await this.record(tx, actor, zone, 'created', created, []);
      return created;
    });
    return toApiSchedule(row, zone.timezone);
  }

  /** The whole schedule is sent again (its rules hold between fields); the log names what changed. */
  async update(actor: Actor, path: SchedulePath, values: ScheduleValues): Promise<Schedule> {
    requireZoneManage(actor, path, 'schedules.manage');
    const zone = await this.changeableZone(path);
    const before = await this.find(zone, path.scheduleId);
    const row = await this.ctx.db.transaction(async (tx) => {
      const updated = await updateSchedule(tx, before.id, values, this.ctx.now());
      await this.record(tx, actor, zone, 'updated', updated, changedFields(valuesOf(before), values));
      return updated;
    });
    return toApiSchedule(row, zone.timezone);
  }

  /**
   * Deleting stays possible when the zone no longer allows scheduled closings (tidying up). A
   * window already closed still opens at its end (docs/schedules.md).
   */
  async remove(actor: Actor, path: SchedulePath, confirmName: string): Promise<void> {
    requireZoneManage(actor, path, 'schedules.manage');
    const zone = await this.findZone(path);
    const row = await this.find(zone, path.scheduleId);
    await this.requireUnlocked(zone);
    if (!typedNameMatches(confirmName, row.label)) throw namesMismatch();
    await this.ctx.db.transaction(async (tx) => {
      await deleteSchedule(tx, row.id);
      await this.record(tx, actor, zone, 'deleted', row, []);
    });
  }

  /** The zone, when it takes scheduled closings and is not locked. */
  private async changeableZone(path: ZonePath): Promise<ScheduleZone> {
    const zone = await this.findZone(path);
    if (!zone.scheduledClosingAuthorised) throw new AppError('errors.scheduled_closing_not_authorised');
    await this.requireUnlocked(zone);
    return zone;
  }

  /** issue #8: a zone locked by automatic closing answers "No action allowed" to every action. */
  private async requireUnlocked(zone: ScheduleZone): Promise<void> {
    if (await isZoneLocked(this.ctx.db, zone.id)) throw new AppError('errors.no_action_allowed');
  }

  private async findZone(path: ZonePath): Promise<ScheduleZone> {
    const zone = await findScheduleZone(this.ctx.db, path);
    if (!zone) throw notFound();
    return zone;
  }

  private async find(zone: ScheduleZone, scheduleId: string): Promise<ScheduleRow> {
    const row = await findSchedule(this.ctx.db, zone.id, scheduleId);
    if (!row) throw notFound();
    return row;
  }

  /** The activity-log line and the live message of a change, in its transaction. */
  private async record(
    db: Db,
    actor: Actor,
    zone: ScheduleZone,
    action: 'created' | 'updated' | 'deleted',
    row: ScheduleRow,
    fields: string[],
  ): Promise<void> {
    await notifyScheduleChange(db, zone, action, row.id);
    await recordChange(db, this.ctx.now(), actor, {
      action,
      object: 'schedule',
      objectId: row.id,
      objectLabel: row.label,
      scope: {
        customerId: zone.path.customerId,
        siteId: zone.path.siteId,
        buildingId: zone.path.buildingId,
        zoneId: zone.id,
      },
      changedFields: fields,
    });
  }
}

function changedFields(before: ScheduleValues, after: ScheduleValues): string[] {
  return (Object.keys(after) as (keyof ScheduleValues)[])
    .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
    .sort();
}
