import type { Language, Schedule } from '@flowbox/shared';
import type { TFunction } from 'i18next';
import { formatDate, formatDateTime } from '../../lib/dates.ts';

/** "Every 1 week(s): Friday, Saturday", "Once": how a schedule repeats. */
export function ruleText(schedule: Schedule, t: TFunction): string {
  if (!schedule.recurring || !schedule.frequency) return t('schedules.once');
  const count = schedule.interval;
  if (schedule.frequency === 'weekly') {
    const days = schedule.weekdays.map((day) => t(`buildings.day.${day}`)).join(', ');
    return t('schedules.every.weekly', { count, days });
  }
  if (schedule.frequency === 'monthly')
    return t('schedules.every.monthly', { count, day: Number(schedule.date_start.slice(8, 10)) });
  return t('schedules.every.daily', { count });
}

export function durationText(minutes: number, t: TFunction): string {
  return t('schedules.duration', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}

export function periodText(schedule: Schedule, language: Language, t: TFunction): string {
  return t('schedules.from_to', {
    start: formatDate(schedule.date_start, language),
    end: formatDate(schedule.date_end, language),
  });
}

/** A wall-clock time of the building ("2026-03-28T22:00"), shown as it reads there. */
export const localDateTime = (local: string, language: Language) => formatDateTime(local, language);
