import { zodResolver } from '@hookform/resolvers/zod';
import {
  SCHEDULE_FREQUENCIES,
  SCHEDULE_INTERVAL_MAX,
  ScheduleInputSchema,
  WEEKDAYS,
  type ScheduleInput,
  type ScheduleValues,
} from '@flowbox/shared';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/Alert.tsx';
import { Button, ButtonLink } from '../../../components/Button.tsx';
import { Checkbox } from '../../../components/Checkbox.tsx';
import { FieldError } from '../../../components/FieldError.tsx';
import { FormActions } from '../../../components/FormActions.tsx';
import { DateInput } from '../../../components/forms/DateInput.tsx';
import { Select } from '../../../components/Select.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { useFormSubmit } from '../../../lib/forms.ts';

const FIELDS = [
  'label',
  'date_start',
  'date_end',
  'closing_time',
  'opening_time',
  'recurring',
  'frequency',
  'interval',
  'weekdays',
];

export type ScheduleFormProps = {
  defaultValues?: ScheduleInput;
  submitLabel: string;
  cancelTo: string;
  /** Receives the checked values; a rejection with an API error is shown on the fields and above. */
  onSubmit: (values: ScheduleValues) => Promise<unknown>;
};

/**
 * A scheduled closing (spec §3 Schedule, docs/schedules.md): dates and times in the building's
 * time zone, once or repeated daily, weekly on chosen days, or monthly.
 */
export function ScheduleForm({ defaultValues, submitLabel, cancelTo, onSubmit }: ScheduleFormProps) {
  const { t } = useTranslation();
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors, isSubmitting },
  } = useForm<ScheduleInput, unknown, ScheduleValues>({
    resolver: zodResolver(ScheduleInputSchema),
    defaultValues: {
      label: '',
      closing_time: '22:00',
      opening_time: '06:00',
      recurring: true,
      frequency: 'weekly',
      interval: 1,
      weekdays: [],
      ...defaultValues,
    },
  });
  const recurring = useWatch({ control, name: 'recurring' });
  const frequency = useWatch({ control, name: 'frequency' }) ?? 'daily';

  const { submit, failure } = useFormSubmit({ handleSubmit, setError }, FIELDS, async (values) => {
    await onSubmit(values);
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
      <TextField
        label={t('schedules.label')}
        maxLength={120}
        required
        autoComplete="off"
        error={errors.label}
        {...register('label')}
      />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <DateInput control={control} name="date_start" label={t('schedules.date_start')} required />
        <DateInput control={control} name="date_end" label={t('schedules.date_end')} required />
        <TextField
          type="time"
          label={t('schedules.closing_time')}
          required
          error={errors.closing_time}
          {...register('closing_time')}
        />
        <TextField
          type="time"
          label={t('schedules.opening_time')}
          required
          hint={recurring ? t('schedules.times_hint') : undefined}
          error={errors.opening_time}
          {...register('opening_time')}
        />
      </div>
      <div>
        <Checkbox label={t('schedules.recurring')} error={errors.recurring} {...register('recurring')} />
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          {recurring ? t('schedules.recurring_hint') : t('schedules.one_off_hint')}
        </p>
      </div>
      {recurring && (
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <Select
            label={t('schedules.frequency')}
            required
            options={SCHEDULE_FREQUENCIES.map((value) => ({
              value,
              label: t(`schedules.frequency.${value}`),
            }))}
            error={errors.frequency}
            {...register('frequency', { setValueAs: (v: string) => (v === '' ? null : v) })}
          />
          <TextField
            type="number"
            min={1}
            max={SCHEDULE_INTERVAL_MAX}
            label={t('schedules.interval')}
            required
            hint={t(`schedules.interval_hint.${frequency}`)}
            error={errors.interval}
            {...register('interval', { valueAsNumber: true })}
          />
          {frequency === 'weekly' && (
            <fieldset
              className="sm:col-span-2"
              aria-describedby={errors.weekdays ? 'weekdays-error' : undefined}
            >
              <legend className="mb-1 text-sm font-medium text-slate-800 dark:text-slate-200">
                {t('schedules.weekdays')}
                <span aria-hidden="true" className="ml-1 text-red-700 dark:text-red-400">
                  *
                </span>
              </legend>
              <div className="flex flex-wrap gap-4">
                {WEEKDAYS.map((day) => (
                  <Checkbox
                    key={day}
                    label={t(`buildings.day.${day}`)}
                    value={day}
                    {...register('weekdays')}
                  />
                ))}
              </div>
              <FieldError id="weekdays-error" error={errors.weekdays as never} />
            </fieldset>
          )}
        </div>
      )}
      <FormActions>
        <ButtonLink to={cancelTo} variant="secondary">
          {t('common.cancel')}
        </ButtonLink>
        <Button type="submit" loading={isSubmitting}>
          {submitLabel}
        </Button>
      </FormActions>
    </form>
  );
}
