import { DISPLAY_DATE_FORMAT, DISPLAY_DATETIME_FORMAT, isBackendDate, type Language } from '@flowbox/shared';
import { format, isValid, parseISO } from 'date-fns';

/** spec §3: MM/dd/yyyy in English, dd/MM/yyyy in French. Accepts yyyy-MM-dd or an ISO timestamp. */
export function formatDate(value: string | null | undefined, language: Language): string {
  if (!value) return '—';
  const date = parseISO(value);
  return isValid(date) ? format(date, DISPLAY_DATE_FORMAT[language]) : '—';
}

export function formatDateTime(value: string | null | undefined, language: Language): string {
  if (!value) return '—';
  const date = parseISO(value);
  return isValid(date) ? format(date, DISPLAY_DATETIME_FORMAT[language]) : '—';
}

/** What a date box holds: the backend date it names, or why its text names none. */
export type DateInputReading =
  { date: string | null } | { problem: 'date_field.invalid_format' | 'date_field.no_such_day' };

/** The date as typed in a date box: the display format of spec §3, '' for none. */
export function toDateInput(value: string | null | undefined, language: Language): string {
  return value && isBackendDate(value) ? format(parseISO(value), DISPLAY_DATE_FORMAT[language]) : '';
}

/**
 * Reads a date typed in the language's display format (spec §3): MM/dd/yyyy in English, dd/MM/yyyy
 * in French. Days and months may drop their leading zero and "." or "-" may stand for "/"; eight
 * digits in a row also do, for phone keypads without "/". Empty text is no date; 31/02/2026 is no day.
 */
export function readDateInput(text: string, language: Language): DateInputReading {
  const typed = text.trim();
  if (typed === '') return { date: null };
  const parts = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(typed) ?? /^(\d{2})(\d{2})(\d{4})$/.exec(typed);
  if (!parts) return { problem: 'date_field.invalid_format' };
  const [first, second, year] = parts.slice(1) as [string, string, string];
  const [month, day] = DISPLAY_DATE_FORMAT[language].startsWith('MM') ? [first, second] : [second, first];
  const date = `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  return isBackendDate(date) ? { date } : { problem: 'date_field.no_such_day' };
}
