import type { AlertCategory } from '@flowbox/shared';
import { useAlerts } from '../../alerts/index.ts';

/** The alerts that mean water is escaping: opening the valve on one of them floods. */
const FLOODING: readonly AlertCategory[] = [
  'leakage_detection',
  'abnormal_water_consumption_no_ac',
  'abnormal_water_consumption_with_ac',
];

/** How many leak or abnormal-consumption alerts of the zone are open or silenced (kept live by the alerts feature). */
export function useFloodingAlertCount(zoneId: string): number {
  const alerts = useAlerts({ zone_id: zoneId, state: 'active' }, 50);
  return alerts.data?.pages[0]?.items.filter((alert) => FLOODING.includes(alert.category)).length ?? 0;
}
