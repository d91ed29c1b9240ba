import type { Language } from './roles.ts';

/** spec §3: dates travel as yyyy-MM-dd and show as MM/dd/yyyy (en) or dd/MM/yyyy (fr). */
export const BACKEND_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

export const DISPLAY_DATE_FORMAT: Record<Language, string> = {
  en: 'MM/dd/yyyy',
  fr: 'dd/MM/yyyy',
};

export const DISPLAY_DATETIME_FORMAT: Record<Language, string> = {
  en: 'MM/dd/yyyy HH:mm',
  fr: 'dd/MM/yyyy HH:mm',
};

/** True when the text is a real calendar date in backend format (rejects 2025-02-30). */
export function isBackendDate(text: string): boolean {
  if (!BACKEND_DATE_PATTERN.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}
