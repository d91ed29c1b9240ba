import { ROLES, type AlertsSettings, type Language, type NotificationPreferences } from '@flowbox/shared';
import { and, eq, exists, isNull, or } from 'drizzle-orm';
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
  /** Null until the user chooses (docs/alerts.md "How each person is told"). */
  notificationPreferences: NotificationPreferences | null;
};

const recipientColumns = {
  id: users.id,
  email: users.email,
  firstname: users.firstname,
  language: users.language,
  alertsSettings: users.alertsSettings,
  alertsInstanceSettings: users.alertsInstanceSettings,
  notificationPreferences: users.notificationPreferences,
};

/** A site manager assigned to this site. */
function siteManagerOf(tx: Db, siteId: string) {
  return and(
    eq(users.role, ROLES.site_manager),
    exists(
      tx
        .select({ one: userSites.userId })
        .from(userSites)
        .where(and(eq(userSites.userId, users.id), eq(userSites.siteId, siteId))),
    ),
  );
}

/**
 * Who is told (spec §6 "the email notification setting" is for customer and site managers): the
 * customer's customer managers, the site managers assigned to the alert's site, and the end users
 * of the alert's zone (docs/permissions.md). Provider managers see every alert on the screen but
 * are not emailed (docs/alerts.md); nor are plumbers, whom a manager calls.
 */
export async function recipientsOf(tx: Db, alert: AlertRow): Promise<Recipient[]> {
  return tx
    .select(recipientColumns)
    .from(users)
    .where(
      and(
        eq(users.customerId, alert.customerId),
        eq(users.alertNotificationEnabled, true),
        // A suspended account (a resident who moved out) is told nothing (docs/permissions.md).
        isNull(users.suspendedAt),
        or(
          eq(users.role, ROLES.customer_manager),
          siteManagerOf(tx, alert.siteId),
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

/**
 * Whom a critical alert nobody opened escalates to (docs/alerts.md "Escalation"): the customer
 * managers of its customer and the site managers of its site, whatever their own settings, as the
 * people answerable for the zone; suspended accounts are left out.
 */
export async function zoneManagersOf(
  tx: Db,
  alert: Pick<AlertRow, 'customerId' | 'siteId'>,
): Promise<Recipient[]> {
  return tx
    .select(recipientColumns)
    .from(users)
    .where(
      and(
        eq(users.customerId, alert.customerId),
        isNull(users.suspendedAt),
        or(eq(users.role, ROLES.customer_manager), siteManagerOf(tx, alert.siteId)),
      ),
    );
}
