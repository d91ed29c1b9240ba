import type { EventAction, WaterCloser, ZoneWater } from '@flowbox/shared';
import { requireZoneRead, type Actor } from '../access/access.ts';
import type { Context } from '../context.ts';
import { notFound } from '../errors.ts';
import { latestZoneEvents, type LoggedEvent } from '../events/index.ts';
import type { ZonePath } from '../http/params.ts';
import { zoneValveAt } from './zone-water.repo.ts';

/** The system's closings of a zone, each logged in the transaction that sent its safety close. */
const SYSTEM_CLOSINGS: Partial<Record<EventAction, WaterCloser>> = {
  automatic_closing_triggered: 'automatic_closing',
  scheduled_closing_started: 'schedule',
  away_closing: 'away_mode',
};
const WATER_ACTIONS: EventAction[] = [
  'valve_closed',
  'valve_opened',
  ...(Object.keys(SYSTEM_CLOSINGS) as EventAction[]),
];
/** Lines read back: a closing's cause is among the few lines before its confirmation. */
const LINES = 50;

/**
 * Who or what closed the water, from a zone's latest water lines (newest first): the last
 * `valve_closed` (the device's confirmation of a command, or its report of a hand on the valve)
 * not followed by an opening; by a person (a command sent from the web), by hand on the device, or,
 * for the system's command, by the system closing logged at or before it (automatic closing, a
 * scheduled closing, away mode). `unknown` when the log holds no such closing.
 */
export function waterClosing(lines: readonly LoggedEvent[]): {
  since: Date | null;
  by: WaterCloser;
  name: string | null;
} {
  const closed = lines.findIndex((e) => e.action === 'valve_closed');
  const opened = lines.findIndex((e) => e.action === 'valve_opened');
  const line = lines[closed];
  if (!line || (opened >= 0 && opened < closed)) return { since: null, by: 'unknown', name: null };
  if (line.origin === 'device') return { since: line.at, by: 'device', name: null };
  if (line.origin === 'web') return { since: line.at, by: 'person', name: line.userName };
  // Logged before the confirmation, or in the same instant (then the log's order between them is not kept).
  const cause = lines.find(
    (e, i) => SYSTEM_CLOSINGS[e.action] && (i > closed || e.at.getTime() === line.at.getTime()),
  );
  return { since: line.at, by: cause ? SYSTEM_CLOSINGS[cause.action]! : 'unknown', name: null };
}

/** A zone's water for its residents' home (issue 33): on or off, and when off, since when and by whom. */
export class ZoneWaterService {
  constructor(private readonly ctx: Context) {}

  async water(actor: Actor, path: ZonePath): Promise<ZoneWater> {
    requireZoneRead(actor, path);
    const zone = await zoneValveAt(this.ctx.db, path);
    if (!zone) throw notFound();
    const base = { zone_id: path.zoneId, valve: zone.valve, timezone: zone.timezone };
    if (zone.valve !== 'closed')
      return { ...base, closed_since: null, closed_by: null, closed_by_name: null };
    const closing = waterClosing(await latestZoneEvents(this.ctx.db, path.zoneId, WATER_ACTIONS, LINES));
    return {
      ...base,
      closed_since: closing.since?.toISOString() ?? null,
      closed_by: closing.by,
      closed_by_name: closing.name,
    };
  }
}
