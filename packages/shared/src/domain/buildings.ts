// A building's units and week (spec §3): below the HTTP contract (api/), billing and automation.

/** spec §3 water measurement units; consumption is stored in litres and converted for display. */
export const VOLUME_UNITS = ['gallon', 'imperial_gallon', 'liter', 'm3'] as const;
export type VolumeUnit = (typeof VOLUME_UNITS)[number];

/** The days of a week, Monday first (opening hours, schedules). */
export const WEEKDAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const DEFAULT_WEEKEND: Weekday[] = ['saturday', 'sunday'];

/** One open interval of a day, in the building's local time ("08:00" to "12:30"; an end may be 24:00). */
export type OpeningInterval = { start: string; end: string };
/** Opening hours: for each weekday, the open intervals in order (empty: closed). */
export type OpeningHours = Record<Weekday, OpeningInterval[]>;
