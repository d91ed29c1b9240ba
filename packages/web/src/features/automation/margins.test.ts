import type { Automation, OpeningHours } from '@flowbox/shared';
import { describe, expect, it } from 'vitest';
import { marginsNow } from './margins.ts';

const automation = {
  volume_unit: 'm3',
  volume_margin_enabled: true,
  volume_margin: 0.06,
  duration_margin_enabled: true,
  duration_margin_minutes: 30,
} as Automation;
const weekdays: OpeningHours = {
  monday: [{ start: '08:00', end: '18:00' }],
  tuesday: [{ start: '08:00', end: '18:00' }],
  wednesday: [{ start: '08:00', end: '18:00' }],
  thursday: [{ start: '08:00', end: '18:00' }],
  friday: [{ start: '08:00', end: '18:00' }],
  saturday: [],
  sunday: [],
};
// Thursday 3 December 2026, in Paris (UTC+1).
const noon = new Date('2026-12-03T11:00:00Z');
const night = new Date('2026-12-03T22:00:00Z');

/* Issue 30: the card showed 0.06 m³ while the alert, raised at night, said "beyond the 0.03 m³ margin". */
describe('the margins in force now', () => {
  it('are halved outside an office’s opening hours, and say so', () => {
    const office = { profile: 'office' as const, effective_opening_hours: weekdays };
    expect(marginsNow(automation, office, 'Europe/Paris', night)).toEqual({
      reason: 'off_hours',
      volume: 0.03,
      minutes: 15,
    });
    expect(marginsNow(automation, office, 'Europe/Paris', noon)).toEqual({
      reason: 'open',
      volume: 0.06,
      minutes: 30,
    });
  });

  it('are the ones set at every hour for a round-the-clock profile or a zone without hours', () => {
    const home = { profile: 'housing' as const, effective_opening_hours: weekdays };
    expect(marginsNow(automation, home, 'Europe/Paris', night)).toEqual({
      reason: 'round_the_clock',
      volume: 0.06,
      minutes: 30,
    });
    const unset = { profile: 'office' as const, effective_opening_hours: null };
    expect(marginsNow(automation, unset, 'Europe/Paris', night)).toMatchObject({
      reason: 'no_hours',
      volume: 0.06,
    });
  });

  it('leave a margin that is not checked unchecked, in litres too', () => {
    const litres = {
      ...automation,
      volume_unit: 'liter',
      volume_margin: 25,
      duration_margin_enabled: false,
    } as Automation;
    const office = { profile: 'office' as const, effective_opening_hours: weekdays };
    expect(marginsNow(litres, office, 'Europe/Paris', night)).toEqual({
      reason: 'off_hours',
      volume: 12.5,
      minutes: null,
    });
  });
});
