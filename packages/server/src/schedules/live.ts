import type { ScheduleLiveChange } from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import { notifyLive } from '../live/index.ts';
import type { ScheduleZone } from './schedules.repo.ts';

/**
 * The live `schedule` message (docs/schedules.md "Live updates"), queued in the change's
 * transaction: it reaches the browsers of every instance once the change commits, and only those
 * of users who may read the zone's site (the live stream's rule).
 */
export function notifyScheduleChange(
  db: Db,
  zone: ScheduleZone,
  change: ScheduleLiveChange,
  scheduleId: string | null,
): Promise<void> {
  return notifyLive(db, {
    type: 'schedule',
    change,
    schedule_id: scheduleId,
    customer_id: zone.path.customerId,
    site_id: zone.path.siteId,
    building_id: zone.path.buildingId,
    zone_id: zone.id,
  });
}
