import { describe, expect, it } from 'vitest';
import { CLOSED_WEEK, isClosedWeek, openingHoursValueOf, weekFrom } from './OpeningHoursField.tsx';

describe('opening hours values', () => {
  it('names the seven days whatever the record leaves out', () => {
    const value = openingHoursValueOf({ monday: [{ start: '08:00', end: '12:00' }] });
    expect(Object.keys(value)).toHaveLength(7);
    expect(value.monday).toEqual([{ start: '08:00', end: '12:00' }]);
    expect(value.sunday).toEqual([]);
    expect(openingHoursValueOf(null)).toEqual(CLOSED_WEEK);
  });

  it('does not share the record’s lists, so editing the form never edits the cached record', () => {
    const record = { monday: [{ start: '08:00', end: '12:00' }] };
    openingHoursValueOf(record).monday.push({ start: '13:00', end: '14:00' });
    expect(record.monday).toHaveLength(1);
  });

  it('tells a week closed every day from one with hours', () => {
    expect(isClosedWeek(CLOSED_WEEK)).toBe(true);
    expect(isClosedWeek(openingHoursValueOf({ friday: [{ start: '08:00', end: '24:00' }] }))).toBe(false);
  });

  it('orders the week from the building’s first day', () => {
    expect(weekFrom()).toEqual([
      'monday',
      'tuesday',
      'wednesday',
      'thursday',
      'friday',
      'saturday',
      'sunday',
    ]);
    expect(weekFrom('sunday')).toEqual([
      'sunday',
      'monday',
      'tuesday',
      'wednesday',
      'thursday',
      'friday',
      'saturday',
    ]);
  });
});
