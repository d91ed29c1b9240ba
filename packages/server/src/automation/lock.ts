import type { FastifyRequest } from 'fastify';
import { canReadZone } from '../access/access.ts';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import type { ZonePath } from '../http/params.ts';
import { isZoneLockedAt } from './automation.repo.ts';
import { actorOf } from '../http/types.ts';

/** The exit is the one change a locked zone accepts (spec §4). */
export const EXIT_ROUTE_SUFFIX = '/automation/exit';
/**
 * A flowbox's firmware update refuses a locked zone itself, saying why
 * (`errors.firmware_zone_locked`, docs/firmware.md), as its rollouts skip such a zone's devices.
 */
const FIRMWARE_ROUTE_SUFFIX = '/firmware';
/** The backtest changes nothing (docs/automation.md "Backtest"): a read, though it is posted. */
export const BACKTEST_ROUTE_SUFFIX = '/automation/backtest';

/** For services: "No action allowed" (spec §8) while automatic closing holds the zone. */
export async function assertZoneNotLocked(db: Db, path: ZonePath): Promise<void> {
  if (await isZoneLockedAt(db, path)) throw new AppError('errors.no_action_allowed');
}

const ZONE_ROUTE = /\/zones\/:zoneId(\/|$)/;

/**
 * The one place the HTTP API enforces the lock (spec §4 "no action is allowed until the user exits
 * the mode"): every change under a zone (valve and mode commands, settings, schedules, pairing,
 * water points, subscription, deletion) answers 409 "No action allowed", except the exit itself.
 * Reads stay open. A caller who may not read the site is left to the route, which refuses it as
 * usual (403), so the lock of someone else's zone is never revealed.
 */
export function lockedZoneGuard(db: Db) {
  return async (request: FastifyRequest): Promise<void> => {
    if (request.method === 'GET' || request.method === 'HEAD') return;
    const url = request.routeOptions.url ?? '';
    if (
      !ZONE_ROUTE.test(url) ||
      url.endsWith(EXIT_ROUTE_SUFFIX) ||
      url.endsWith(FIRMWARE_ROUTE_SUFFIX) ||
      url.endsWith(BACKTEST_ROUTE_SUFFIX)
    )
      return;
    const params = request.params as Partial<ZonePath>;
    const { customerId, siteId, buildingId, zoneId } = params;
    if (!customerId || !siteId || !buildingId || !zoneId) return;
    if (!canReadZone(actorOf(request), { customerId, siteId, zoneId })) return;
    await assertZoneNotLocked(db, { customerId, siteId, buildingId, zoneId });
  };
}
