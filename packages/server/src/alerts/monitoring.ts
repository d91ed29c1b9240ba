import type { MonitoringStatus, WaterTemperature } from '@flowbox/shared';

/**
 * spec §4 monitoring with hysteresis (docs/alerts.md "Monitoring"). A band says which side is bad
 * (`high`: humidity; `low`: hot water too cold, cold water freezing), where warning and alert
 * start, and by how much a value must come back past a threshold before the status steps down.
 * Stepping up is immediate; stepping down needs the value `hysteresis` inside the threshold, so a
 * value hovering at a threshold changes status once, not at every reading.
 */
export type MonitoringBand = { bad: 'high' | 'low'; warning: number; alert: number; hysteresis: number };

const LEVEL: Record<MonitoringStatus, number> = { normal: 0, warning: 1, alert: 2 };

export function nextMonitoringStatus(
  current: MonitoringStatus,
  value: number,
  band: MonitoringBand,
): MonitoringStatus {
  // Written for "high is bad"; "low is bad" mirrors the values.
  const sign = band.bad === 'high' ? 1 : -1;
  const v = sign * value;
  const warning = sign * band.warning;
  const alert = sign * band.alert;
  const reached: MonitoringStatus = v >= alert ? 'alert' : v >= warning ? 'warning' : 'normal';
  if (LEVEL[reached] >= LEVEL[current]) return reached;
  // Stepping down: only once the value is clearly back below the current level's threshold.
  const held: MonitoringStatus =
    v >= alert - band.hysteresis ? 'alert' : v >= warning - band.hysteresis ? 'warning' : 'normal';
  return LEVEL[held] < LEVEL[current] ? (LEVEL[held] > LEVEL[reached] ? held : reached) : current;
}

/** The device's hygrometer inside its enclosure (docs/protocol.md): condensation harms the board. */
export const HUMIDITY_BAND: MonitoringBand = { bad: 'high', warning: 80, alert: 90, hysteresis: 5 };

/**
 * The in-line thermometer (docs/protocol.md `temperature_c`), read against the zone's water:
 * hot water below 50 °C lets legionella grow (alert), below 55 °C is a warning; cold water at 3 °C
 * or less is a frost risk (alert), 6 °C or less a warning.
 */
export const TEMPERATURE_BANDS: Record<WaterTemperature, MonitoringBand> = {
  hot: { bad: 'low', warning: 55, alert: 50, hysteresis: 2 },
  cold: { bad: 'low', warning: 6, alert: 3, hysteresis: 1 },
};
