import type { Language } from '@flowbox/shared';

/** Column names of the consumption export, in the reader's language (docs/consumption.md "CSV"). */
export const CSV_COLUMNS: Record<Language, string[]> = {
  en: ['Start', 'End', 'Customer', 'Site', 'Building', 'Zone', 'Volume', 'Unit', 'Cost', 'Currency'],
  fr: ['Début', 'Fin', 'Client', 'Site', 'Bâtiment', 'Zone', 'Volume', 'Unité', 'Coût', 'Devise'],
};

/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function csvLine(fields: string[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

const localFormats = new Map<string, Intl.DateTimeFormat>();

/** An instant as the local wall clock of a time zone, "yyyy-MM-dd HH:mm". */
export function localDateTime(at: Date, timezone: string): string {
  let format = localFormats.get(timezone);
  if (!format) {
    // sv-SE spells date and time as yyyy-MM-dd HH:mm.
    format = new Intl.DateTimeFormat('sv-SE', {
      timeZone: timezone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    localFormats.set(timezone, format);
  }
  return format.format(at);
}
