import { type ValveState } from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import { withZoneScope, zoneAt } from '../db/scope.ts';
import { buildings, zones } from '../db/schema.ts';
import type { ZonePath } from '../http/params.ts';

/** A zone's valve as its flowboxes last reported it (the zone's mirror), and its building's clock. */
export async function zoneValveAt(
  db: Db,
  path: ZonePath,
): Promise<{ valve: ValveState; timezone: string } | undefined> {
  const [row] = await withZoneScope(
    db.select({ valve: zones.valveState, timezone: buildings.timezone }).from(zones),
  ).where(zoneAt(path));
  return row;
}
