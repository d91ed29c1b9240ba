import { MONITORING_STATUSES, type MonitoringStatus } from '@flowbox/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HUMIDITY_BAND, nextMonitoringStatus, TEMPERATURE_BANDS, type MonitoringBand } from './monitoring.ts';

const BANDS: [string, MonitoringBand][] = [
  ['humidity', HUMIDITY_BAND],
  ['hot water', TEMPERATURE_BANDS.hot],
  ['cold water', TEMPERATURE_BANDS.cold],
];

function changesAfterFirst(band: MonitoringBand, start: MonitoringStatus, values: number[]): number {
  let status = nextMonitoringStatus(start, values[0]!, band);
  let changes = 0;
  for (const value of values.slice(1)) {
    const next = nextMonitoringStatus(status, value, band);
    if (next !== status) changes += 1;
    status = next;
  }
  return changes;
}

describe('monitoring status with hysteresis', () => {
  it.each(BANDS)('%s: steps up at once and down only past the hysteresis', (_name, band) => {
    const s = band.bad === 'high' ? 1 : -1;
    expect(nextMonitoringStatus('normal', band.alert, band)).toBe('alert');
    expect(nextMonitoringStatus('normal', band.warning, band)).toBe('warning');
    expect(nextMonitoringStatus('alert', band.alert - s * (band.hysteresis / 2), band)).toBe('alert');
    expect(nextMonitoringStatus('alert', band.warning - s * (band.hysteresis + 1), band)).toBe('normal');
    expect(nextMonitoringStatus('warning', band.warning - s * (band.hysteresis / 2), band)).toBe('warning');
  });

  it.each(BANDS)(
    '%s: a value oscillating within the hysteresis of a threshold never flaps',
    (_name, band) => {
      fc.assert(
        fc.property(
          fc.constantFrom(band.warning, band.alert),
          fc.constantFrom(...MONITORING_STATUSES),
          fc.array(fc.double({ min: -0.999, max: 0.999, noNaN: true }), { minLength: 2, maxLength: 60 }),
          (threshold, start, offsets) => {
            const values = offsets.map((o) => threshold + o * band.hysteresis);
            // One step when it first crosses (up), none back and forth afterwards.
            expect(changesAfterFirst(band, start, values)).toBeLessThanOrEqual(1);
          },
        ),
      );
    },
  );

  it('a hot-water reading below 50 °C is an alert (legionella), a cold-water one at 3 °C too (frost)', () => {
    expect(nextMonitoringStatus('normal', 48, TEMPERATURE_BANDS.hot)).toBe('alert');
    expect(nextMonitoringStatus('normal', 60, TEMPERATURE_BANDS.hot)).toBe('normal');
    expect(nextMonitoringStatus('normal', 3, TEMPERATURE_BANDS.cold)).toBe('alert');
    expect(nextMonitoringStatus('normal', 12, TEMPERATURE_BANDS.cold)).toBe('normal');
  });
});
