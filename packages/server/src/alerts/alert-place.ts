import type { AlertCategory } from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import { findAlertRow, findAlertZone } from './alerts.repo.ts';

/** An alert as another domain acts on it: where it is (its zone's name included) and its category. */
export type AlertPlace = {
  id: string;
  category: AlertCategory;
  customerId: string;
  siteId: string;
  buildingId: string;
  zoneId: string;
  zoneName: string;
};

/** The alert's place and category; undefined when the alert, or its zone, is gone. */
export async function alertPlaceOf(db: Db, alertId: string): Promise<AlertPlace | undefined> {
  const alert = await findAlertRow(db, alertId);
  const zone = alert && (await findAlertZone(db, alert.zoneId));
  if (!alert || !zone) return undefined;
  const { customerId, siteId, buildingId, zoneId, zoneName } = zone;
  return { id: alert.id, category: alert.category, customerId, siteId, buildingId, zoneId, zoneName };
}
