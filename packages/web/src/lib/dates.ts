import { DISPLAY_DATE_FORMAT, DISPLAY_DATETIME_FORMAT, type Language } from '@flowbox/shared';
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
