import { zodResolver } from '@hookform/resolvers/zod';
import {
  BUILDING_TYPES,
  BuildingCreateSchema,
  WEEKDAYS,
  type Building,
  type BuildingCreateInput,
  type Weekday,
} from '@flowbox/shared';
import { useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Alert } from '../../../components/Alert.tsx';
import { Button, ButtonLink } from '../../../components/Button.tsx';
import { Card } from '../../../components/Card.tsx';
import { Checkbox } from '../../../components/Checkbox.tsx';
import { FieldError } from '../../../components/FieldError.tsx';
import { FormActions } from '../../../components/FormActions.tsx';
import { NameField } from '../../../components/forms/NameField.tsx';
import { OpeningHoursInput } from '../../../components/forms/OpeningHoursInput.tsx';
import { VolumeUnitSelect } from '../../../components/forms/VolumeUnitSelect.tsx';
import { Select } from '../../../components/Select.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { useFormSubmit } from '../../../lib/forms.ts';
import { CoordinateFields, coordinateValue } from '../../../components/maps/CoordinateFields.tsx';
import { countInput, decimalInput } from '../../../lib/form-values.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import {
  browserTimezone,
  buildingFormValues,
  buildingPayload,
  type BuildingValues,
} from '../building-form.ts';
import { countryOptions, currencyOptions, timezoneOptions } from '../options.ts';

const FIELDS = [
  'name',
  'type',
  'address',
  'city',
  'zipCode',
  'country',
  'nbfloor',
  'occupants',
  'nbequipment',
  'opening_hours',
  'timezone',
  'volume_unit',
  'currency',
  'first_day_of_week',
  'weekend',
  'price_per_unit',
  'latitude',
  'longitude',
];

export type BuildingFormProps = {
  /** The building being edited; without it the form starts a new one. */
  building?: Building;
  submitLabel: string;
  /** Where "Cancel" leads; without it no cancel link is shown (the assistant has its own steps). */
  cancelTo?: string;
  /** Receives the checked values (a week closed every day as null); throw to show the server's errors. */
  onSubmit: (values: BuildingValues) => Promise<unknown>;
};

/**
 * Every field of a building (spec §3), checked by the same shared schema as the server (spec §5:
 * "a building save needs all mandatory fields"). It never navigates: its callers decide what next.
 */
export function BuildingForm({ building, submitLabel, cancelTo, onSubmit }: BuildingFormProps) {
  const { t, language } = useLanguage();
  const [defaults] = useState(() =>
    buildingFormValues(building, { language, locale: navigator.language, timezone: browserTimezone() }),
  );
  const {
    register,
    control,
    handleSubmit,
    setError,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<BuildingCreateInput, unknown, BuildingValues>({
    resolver: zodResolver(BuildingCreateSchema),
    defaultValues: defaults,
  });
  const firstDay = useWatch({ control, name: 'first_day_of_week' });
  const [latitude, longitude] = useWatch({ control, name: ['latitude', 'longitude'] });
  const coordinate = { setValueAs: coordinateValue };

  const countries = useMemo(() => countryOptions(language), [language]);
  const currencies = useMemo(() => currencyOptions(language), [language]);
  const timezones = useMemo(() => timezoneOptions([defaults.timezone ?? '']), [defaults.timezone]);
  const days = WEEKDAYS.map((day) => ({ value: day, label: t(`buildings.day.${day}`) }));

  const { submit, failure } = useFormSubmit({ handleSubmit, setError }, FIELDS, async (values) => {
    await onSubmit(buildingPayload(values));
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
      <Card title={t('buildings.section_general')}>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <NameField error={errors.name} {...register('name')} />
          <Select
            label={t('buildings.field.type')}
            required
            options={BUILDING_TYPES.map((type) => ({ value: type, label: t(`buildings.type.${type}`) }))}
            error={errors.type}
            {...register('type')}
          />
        </div>
      </Card>
      <Card title={t('buildings.section_location')}>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <TextField
            label={t('buildings.field.address')}
            maxLength={200}
            required
            autoComplete="off"
            className="sm:col-span-2"
            error={errors.address}
            {...register('address')}
          />
          <TextField
            label={t('buildings.field.zipCode')}
            maxLength={20}
            required
            autoComplete="off"
            error={errors.zipCode}
            {...register('zipCode')}
          />
          <TextField
            label={t('buildings.field.city')}
            maxLength={120}
            required
            autoComplete="off"
            error={errors.city}
            {...register('city')}
          />
          <Select
            label={t('buildings.field.country')}
            required
            options={countries}
            error={errors.country}
            {...register('country')}
          />
        </div>
        <div className="mt-4">
          <CoordinateFields
            latitude={{
              value: latitude ?? null,
              error: errors.latitude,
              input: register('latitude', coordinate),
            }}
            longitude={{
              value: longitude ?? null,
              error: errors.longitude,
              input: register('longitude', coordinate),
            }}
            onPick={(lat, lng) => {
              setValue('latitude', lat, { shouldDirty: true });
              setValue('longitude', lng, { shouldDirty: true });
            }}
          />
        </div>
      </Card>
      <Card title={t('buildings.section_occupancy')}>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
          <TextField
            label={t('buildings.field.nbfloor')}
            error={errors.nbfloor}
            {...countInput(register, 'nbfloor')}
          />
          <TextField
            label={t('buildings.field.occupants')}
            error={errors.occupants}
            {...countInput(register, 'occupants')}
          />
          <TextField
            label={t('buildings.field.nbequipment')}
            hint={t('buildings.field.nbequipment_hint')}
            error={errors.nbequipment}
            {...countInput(register, 'nbequipment')}
          />
        </div>
      </Card>
      <Card title={t('buildings.section_water')}>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
          <VolumeUnitSelect
            label={t('buildings.field.volume_unit')}
            error={errors.volume_unit}
            {...register('volume_unit')}
          />
          <Select
            label={t('buildings.field.currency')}
            required
            options={currencies}
            error={errors.currency}
            {...register('currency')}
          />
          <TextField
            label={t('buildings.field.price_per_unit')}
            maxLength={14}
            hint={t('buildings.field.price_per_unit_hint')}
            error={errors.price_per_unit}
            {...decimalInput(register, 'price_per_unit')}
          />
        </div>
      </Card>
      <Card title={t('buildings.section_week')}>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <Select
            label={t('buildings.field.timezone')}
            required
            options={timezones}
            error={errors.timezone}
            {...register('timezone')}
          />
          <Select
            label={t('buildings.field.first_day_of_week')}
            required
            options={days}
            error={errors.first_day_of_week}
            {...register('first_day_of_week')}
          />
          <fieldset className="sm:col-span-2">
            <legend className="mb-2 text-sm font-medium text-slate-800 dark:text-slate-200">
              {t('buildings.field.weekend')}
            </legend>
            <div className="flex flex-wrap gap-x-6 gap-y-2">
              {days.map((day) => (
                <Checkbox key={day.value} label={day.label} value={day.value} {...register('weekend')} />
              ))}
            </div>
            <FieldError
              id="building-weekend-error"
              error={
                errors.weekend?.message ? { type: 'weekend', message: errors.weekend.message } : undefined
              }
            />
          </fieldset>
        </div>
      </Card>
      <Card>
        <OpeningHoursInput
          control={control}
          name="opening_hours"
          legend={t('buildings.field.opening_hours')}
          hint={t('buildings.hours_hint')}
          firstDayOfWeek={isWeekday(firstDay) ? firstDay : undefined}
        />
      </Card>
      <FormActions>
        {cancelTo && (
          <ButtonLink to={cancelTo} variant="secondary">
            {t('common.cancel')}
          </ButtonLink>
        )}
        <Button type="submit" loading={isSubmitting}>
          {submitLabel}
        </Button>
      </FormActions>
    </form>
  );
}

function isWeekday(value: unknown): value is Weekday {
  return (WEEKDAYS as readonly unknown[]).includes(value);
}
