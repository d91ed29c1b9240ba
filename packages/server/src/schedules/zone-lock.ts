import { and, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { zoneAutomation } from '../db/schema.ts';

/**
 * Whether automatic closing has locked the zone (issue #8: "No action allowed" until a user exits
 * by typing the zone's name). A scheduled opening never opens a locked zone, and the schedules of
 * a locked zone may not be changed. The lock is the automatic-closing module's
 * (`zone_automation.locked_at`); this reads it only.
 */
export async function zoneLockedByAutomaticClosing(db: Db, zoneId: string): Promise<boolean> {
  const [row] = await db
    .select({ zoneId: zoneAutomation.zoneId })
    .from(zoneAutomation)
    .where(and(eq(zoneAutomation.zoneId, zoneId), isNotNull(zoneAutomation.lockedAt)));
  return row !== undefined;
}
