import { ROLES, type AlertsSettings, type Language } from '@flowbox/shared';
import { and, eq, exists, or } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { users, userSites, userZones } from '../db/schema.ts';
import type { AlertRow } from './alerts.repo.ts';

/** A user the alert emails may go to, with their email settings. */
export type Recipient = {
  id: string;
  email: string;
  firstname: string;
  language: Language;
  alertsSettings: Partial<AlertsSettings>;
  alertsInstanceSettings: Record<string, Partial<AlertsSettings>>;
};

/**
 * Who is told (spec §6 "the email notification setting" is for customer and site managers): the
 * customer's customer managers, the site managers assigned to the alert's site, and the end users
 * of the alert's zone (docs/permissions.md). Provider managers see every alert on the screen but
 * are not emailed (docs/alerts.md); nor are plumbers, whom a manager calls.
 */
export async function recipientsOf(tx: Db, alert: AlertRow): Promise<Recipient[]> {
  return tx
    .select({
      id: users.id,
      email: users.email,
      firstname: users.firstname,
      language: users.language,
      alertsSettings: users.alertsSettings,
      alertsInstanceSettings: users.alertsInstanceSettings,
    })
    .from(users)
    .where(
      and(
        eq(users.customerId, alert.customerId),
        eq(users.alertNotificationEnabled, true),
        or(
          eq(users.role, ROLES.customer_manager),
          and(
            eq(users.role, ROLES.site_manager),
            exists(
              tx
                .select({ one: userSites.userId })
                .from(userSites)
                .where(and(eq(userSites.userId, users.id), eq(userSites.siteId, alert.siteId))),
            ),
          ),
          and(
            eq(users.role, ROLES.end_user),
            exists(
              tx
                .select({ one: userZones.userId })
                .from(userZones)
                .where(and(eq(userZones.userId, users.id), eq(userZones.zoneId, alert.zoneId))),
            ),
          ),
        ),
      ),
    );
}
