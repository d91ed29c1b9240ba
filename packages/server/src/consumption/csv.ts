import { localDateTime as localDateAndTime, utcOffsetMs, type Language } from '@flowbox/shared';

/** Column names of the consumption export, in the reader's language (docs/consumption.md "CSV"). */
export const CSV_COLUMNS: Record<Language, string[]> = {
  en: ['Start', 'End', 'Customer', 'Site', 'Building', 'Zone', 'Volume', 'Unit', 'Cost', 'Currency'],
  fr: ['Début', 'Fin', 'Client', 'Site', 'Bâtiment', 'Zone', 'Volume', 'Unité', 'Coût', 'Devise'],
};

/**
 * An instant as the local wall clock of a time zone with its offset, "yyyy-MM-dd HH:mm+hh:mm"
 * (RFC 3339 with a space): the offset tells apart the two 02:30 of a fall-back night
 * (Australia/Adelaide, +10:30 then +09:30) and keeps the export machine-readable.
 */
export function localDateTime(at: Date, timezone: string): string {
  const offset = Math.round(utcOffsetMs(at, timezone) / 60_000);
  const magnitude = Math.abs(offset);
  const hhmm = `${String(Math.floor(magnitude / 60)).padStart(2, '0')}:${String(magnitude % 60).padStart(2, '0')}`;
  return `${localDateAndTime(at, timezone).replace('T', ' ')}${offset < 0 ? '-' : '+'}${hhmm}`;
}
