import { MAX_INTERVALS_PER_DAY, WEEKDAYS, type OpeningInterval, type Weekday } from '@flowbox/shared';
import { useId } from 'react';
import type { FieldError as HookFieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../Button.tsx';
import { FieldError } from '../FieldError.tsx';
import { TextField } from '../TextField.tsx';

/** Every weekday named, each with its open intervals (an empty day is closed). */
export type OpeningHoursValue = Record<Weekday, OpeningInterval[]>;

type IntervalErrors = { start?: HookFieldError; end?: HookFieldError; message?: string; type?: unknown };
type DayErrors = { message?: string; [index: number]: IntervalErrors | undefined };
/** The shape react-hook-form gives to the errors of an opening-hours field. */
export type OpeningHoursErrors = { message?: string } & { [day in Weekday]?: DayErrors };

export const CLOSED_WEEK: OpeningHoursValue = {
  monday: [],
  tuesday: [],
  wednesday: [],
  thursday: [],
  friday: [],
  saturday: [],
  sunday: [],
};

/** The answer names the seven days; a form starts from it, or from a week closed every day. */
export function openingHoursValueOf(hours: Partial<OpeningHoursValue> | null | undefined): OpeningHoursValue {
  return Object.fromEntries(WEEKDAYS.map((day) => [day, [...(hours?.[day] ?? [])]])) as OpeningHoursValue;
}

export function isClosedWeek(hours: OpeningHoursValue): boolean {
  return WEEKDAYS.every((day) => hours[day].length === 0);
}

/** The week in the order its people read it, starting on the building's first day of the week. */
export function weekFrom(first: Weekday = 'monday'): Weekday[] {
  const start = WEEKDAYS.indexOf(first);
  return [...WEEKDAYS.slice(start), ...WEEKDAYS.slice(0, start)];
}

type OpeningHoursFieldProps = {
  legend: string;
  value: OpeningHoursValue;
  onChange: (value: OpeningHoursValue) => void;
  errors?: OpeningHoursErrors;
  firstDayOfWeek?: Weekday;
  hint?: string;
};

/**
 * Opening hours editor, per weekday, several intervals a day (docs/hierarchy.md, Opening hours):
 * `HH:mm` times, an interval may end at 24:00, at most six a day. The shared schema checks order
 * and overlaps, so the form shows the server's rules before the server sees them.
 */
export function OpeningHoursField({
  legend,
  value,
  onChange,
  errors,
  firstDayOfWeek,
  hint,
}: OpeningHoursFieldProps) {
  const { t } = useTranslation();
  const baseId = useId();

  const setDay = (day: Weekday, intervals: OpeningInterval[]) => onChange({ ...value, [day]: intervals });
  const setTime = (day: Weekday, index: number, edge: 'start' | 'end', time: string) =>
    setDay(
      day,
      value[day].map((interval, i) => (i === index ? { ...interval, [edge]: time } : interval)),
    );

  return (
    <fieldset className="space-y-3">
      <legend className="text-base font-semibold">{legend}</legend>
      {hint && <p className="text-xs text-slate-500 dark:text-slate-400">{hint}</p>}
      <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
        {weekFrom(firstDayOfWeek).map((day) => {
          const dayName = t(`buildings.day.${day}`);
          const intervals = value[day];
          const dayErrors = errors?.[day];
          const addButton = (
            <Button
              variant="secondary"
              disabled={intervals.length >= MAX_INTERVALS_PER_DAY}
              aria-label={t('buildings.hours_add', { day: dayName })}
              onClick={() => {
                const last = intervals[intervals.length - 1];
                // A new interval starts where the previous one closed, the usual lunch-break case.
                const start = last?.end && last.end !== '24:00' ? last.end : '08:00';
                setDay(day, [...intervals, { start, end: '' }]);
              }}
            >
              {t('buildings.hours_add_short')}
            </Button>
          );
          return (
            <li key={day} className="p-3">
              <fieldset>
                {/* The legend names the group for screen readers; the visible name sits beside it. */}
                <legend className="sr-only">{dayName}</legend>
                <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
                  <p aria-hidden="true" className="w-28 shrink-0 text-sm font-medium sm:pt-2">
                    {dayName}
                  </p>
                  <div className="flex-1 space-y-2">
                    {intervals.length === 0 && (
                      <div className="flex items-center gap-3">
                        <p className="text-sm text-slate-500 dark:text-slate-400">
                          {t('buildings.hours_closed')}
                        </p>
                        {addButton}
                      </div>
                    )}
                    {intervals.map((interval, index) => {
                      const intervalErrors = dayErrors?.[index];
                      return (
                        <div key={index}>
                          <div className="flex flex-wrap items-start gap-2">
                            <TextField
                              label={t('buildings.hours_opens')}
                              name={`${day}.${index}.start`}
                              value={interval.start}
                              placeholder="08:00"
                              maxLength={5}
                              autoComplete="off"
                              className="w-28"
                              error={intervalErrors?.start}
                              onChange={(event) => setTime(day, index, 'start', event.target.value)}
                            />
                            <TextField
                              label={t('buildings.hours_closes')}
                              name={`${day}.${index}.end`}
                              value={interval.end}
                              placeholder="18:00"
                              maxLength={5}
                              autoComplete="off"
                              className="w-28"
                              error={intervalErrors?.end}
                              onChange={(event) => setTime(day, index, 'end', event.target.value)}
                            />
                            <Button
                              variant="ghost"
                              className="mt-6"
                              aria-label={t('buildings.hours_remove', { day: dayName, number: index + 1 })}
                              onClick={() =>
                                setDay(
                                  day,
                                  intervals.filter((_, i) => i !== index),
                                )
                              }
                            >
                              {t('buildings.hours_remove_short')}
                            </Button>
                          </div>
                          {/* An overlap is reported on the interval itself, not on one of its times. */}
                          <FieldError
                            id={`${baseId}-${day}-${index}-error`}
                            error={
                              intervalErrors?.message
                                ? { type: 'overlap', message: intervalErrors.message }
                                : undefined
                            }
                          />
                        </div>
                      );
                    })}
                    {intervals.length > 0 && addButton}
                    {dayErrors?.message && (
                      <FieldError
                        id={`${baseId}-${day}-error`}
                        error={{ type: 'day', message: dayErrors.message }}
                      />
                    )}
                  </div>
                </div>
              </fieldset>
            </li>
          );
        })}
      </ul>
      {errors?.message && (
        <FieldError id={`${baseId}-error`} error={{ type: 'hours', message: errors.message }} />
      )}
    </fieldset>
  );
}
