import { followsZone, type AlertFollower } from '../access/access.ts';
import type { Db } from '../db/client.ts';
import { placesOfZones } from './alerts.repo.ts';

export type { AlertFollower };

/**
 * The zones among `zoneIds` that the user is not told about (docs/alerts.md "Who is told"): zones
 * that do not exist, and those `followsZone` leaves out (another customer's, (site managers) a site
 * not assigned to it, (end users) a zone not its own; a plumber is told about none). A user's
 * per-zone email settings (`alerts_instance_settings`) may only name the others.
 */
export async function zonesNotFollowed(db: Db, user: AlertFollower, zoneIds: string[]): Promise<string[]> {
  const unique = [...new Set(zoneIds)];
  if (unique.length === 0) return [];
  const found = await placesOfZones(db, unique);
  const followed = new Set(
    found
      .filter((zone) =>
        followsZone(user, { customerId: zone.customerId, siteId: zone.siteId, zoneId: zone.id }),
      )
      .map((zone) => zone.id),
  );
  return unique.filter((id) => !followed.has(id));
}
