import { ROLES, type Role } from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import { placesOfZones } from './alerts.repo.ts';

/** Whose alerts a user is told about: its role, customer, (site managers) sites and (end users) zones. */
export type AlertFollower = {
  role: Role;
  customerId: string | null;
  siteIds: readonly string[];
  zoneIds?: readonly string[];
};

/**
 * The zones among `zoneIds` that the user is not told about (docs/alerts.md "Who is told"): zones
 * that do not exist, another customer's, (site managers) a site not assigned to it, (end users) a
 * zone not its own; a plumber is told about none. A user's
 * per-zone email settings (`alerts_instance_settings`) may only name the others.
 */
export async function zonesNotFollowed(db: Db, user: AlertFollower, zoneIds: string[]): Promise<string[]> {
  const unique = [...new Set(zoneIds)];
  if (unique.length === 0) return [];
  const found = await placesOfZones(db, unique);
  const followed = new Set(
    found
      .filter(
        (zone) =>
          user.role === ROLES.flovea_manager ||
          (zone.customerId === user.customerId &&
            (user.role === ROLES.customer_manager ||
              (user.role === ROLES.site_manager && user.siteIds.includes(zone.siteId)) ||
              (user.role === ROLES.end_user && (user.zoneIds ?? []).includes(zone.id)))),
      )
      .map((zone) => zone.id),
  );
  return unique.filter((id) => !followed.has(id));
}
