import { zodResolver } from '@hookform/resolvers/zod';
import {
  FLOWBOX_MODELS,
  LEAK_FLOW_S,
  WATER_TEMPERATURES,
  ZONE_PROFILES,
  ZoneCreateSchema,
  type Building,
  type Floor,
  type ZoneCreateInput,
} from '@flowbox/shared';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Alert } from '../../../components/Alert.tsx';
import { Button, ButtonLink } from '../../../components/Button.tsx';
import { Card } from '../../../components/Card.tsx';
import { Checkbox } from '../../../components/Checkbox.tsx';
import { NameField } from '../../../components/forms/NameField.tsx';
import { openingHoursValueOf } from '../../../components/forms/OpeningHoursField.tsx';
import { OpeningHoursInput } from '../../../components/forms/OpeningHoursInput.tsx';
import { FormActions } from '../../../components/FormActions.tsx';
import { OpeningHoursTable } from '../../../components/OpeningHoursTable.tsx';
import { Select } from '../../../components/Select.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { useFormSubmit } from '../../../lib/forms.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { ANY_ROLE, canDo, useUser } from '../../auth/index.ts';
import { countInput, decimalInput } from '../../../lib/form-values.ts';
import { parseOptionalId, withoutValveModes, type ZoneValues } from '../form-values.ts';
import { PriceText } from './PriceText.tsx';

const FIELDS = [
  'name',
  'floor_id',
  'profile',
  'opening_hours',
  'price_per_unit',
  'occupants',
  'water_point_number',
  'scheduled_closing_authorised',
  'leak_detection_mode',
  'maintenance_mode',
  'flowbox_model',
  'water_temperature',
];

/** What a zone takes from its building: the values it falls back to and their units. */
export type ZoneBuilding = Pick<
  Building,
  'opening_hours' | 'price_per_unit' | 'currency' | 'volume_unit' | 'first_day_of_week' | 'weekend'
>;

export type ZoneFormProps = {
  building: ZoneBuilding;
  /** The building's floors, for the floor select. */
  floors: readonly Floor[];
  /** Starting values (an existing zone: `zoneFormValues(zone)`); a new zone starts basic, modes off. */
  defaultValues?: ZoneCreateInput;
  submitLabel: string;
  /** Where Cancel leads; without it the form has no Cancel (a wizard step has its own navigation). */
  cancelTo?: string;
  /** Receives the checked values; a rejection with an API error is shown on the fields and above. */
  onSubmit: (values: ZoneValues) => Promise<unknown>;
};

/**
 * Every field of a zone (spec §3, docs/hierarchy.md), checked with the server's own schema. Opening
 * hours and price follow the building unless overridden. The maintenance and leak-detection modes
 * need `valves.control`: without it they are shown, disabled, and never sent.
 */
export function ZoneForm({
  building,
  floors,
  defaultValues,
  submitLabel,
  cancelTo,
  onSubmit,
}: ZoneFormProps) {
  const { t } = useLanguage();
  const user = useUser();
  const mayControlValves = canDo(user, ANY_ROLE, 'valves.control');
  const [ownHours, setOwnHours] = useState(defaultValues?.opening_hours != null);
  const [ownPrice, setOwnPrice] = useState(defaultValues?.price_per_unit != null);
  const {
    register,
    control,
    handleSubmit,
    setError,
    setValue,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<ZoneCreateInput, unknown, ZoneValues>({
    resolver: zodResolver(ZoneCreateSchema),
    defaultValues: {
      floor_id: null,
      opening_hours: null,
      price_per_unit: null,
      occupants: null,
      water_point_number: null,
      scheduled_closing_authorised: false,
      leak_detection_mode: false,
      maintenance_mode: false,
      ...defaultValues,
    },
  });
  const profile = useWatch({ control, name: 'profile' });

  const { submit, failure } = useFormSubmit({ handleSubmit, setError }, FIELDS, async (values) => {
    await onSubmit(mayControlValves ? values : withoutValveModes(values));
  });

  function followBuildingHours(same: boolean) {
    setOwnHours(!same);
    clearErrors('opening_hours');
    // An override starts from the building's week, which is usually what is adjusted.
    setValue('opening_hours', same ? null : openingHoursValueOf(building.opening_hours));
  }

  function followBuildingPrice(same: boolean) {
    setOwnPrice(!same);
    clearErrors('price_per_unit');
    setValue('price_per_unit', same ? null : (building.price_per_unit ?? ''));
  }

  const unit = t(`zones.unit.${building.volume_unit}`);
  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
      <Card title={t('zones.section_general')}>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <NameField error={errors.name} {...register('name')} />
          <Select
            label={t('zones.floor')}
            placeholder={t('zones.no_floor')}
            options={floors.map((floor) => ({ value: floor.id, label: floor.label }))}
            error={errors.floor_id}
            {...register('floor_id', { setValueAs: parseOptionalId })}
          />
          <div>
            <Select
              label={t('zones.profile')}
              required
              options={ZONE_PROFILES.map((value) => ({ value, label: t(`zones.profile.${value}`) }))}
              error={errors.profile}
              {...register('profile')}
            />
            <p aria-live="polite" className="mt-1 text-xs text-slate-500 dark:text-slate-400">
              {profile && (ZONE_PROFILES as readonly string[]).includes(profile)
                ? t('zones.profile_hint', {
                    use: t(`zones.profile_use.${profile}`),
                    pattern: t(`zones.profile_pattern.${profile}`),
                  })
                : t('zones.profile_choose')}
            </p>
          </div>
        </div>
      </Card>

      <Card title={t('zones.section_device')}>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <div>
            <Select
              label={t('zones.flowbox_model')}
              required
              options={FLOWBOX_MODELS.map((value) => ({ value, label: t(`zones.flowbox_model.${value}`) }))}
              error={errors.flowbox_model}
              {...register('flowbox_model')}
            />
            <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{t('zones.flowbox_model_hint')}</p>
          </div>
          <Select
            label={t('zones.water_temperature')}
            required
            options={WATER_TEMPERATURES.map((value) => ({
              value,
              label: t(`zones.water_temperature.${value}`),
            }))}
            error={errors.water_temperature}
            {...register('water_temperature')}
          />
        </div>
      </Card>

      <Card title={t('zones.section_usage')}>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <TextField
            label={t('zones.occupants')}
            error={errors.occupants}
            {...countInput(register, 'occupants')}
          />
          <TextField
            label={t('zones.water_point_number')}
            hint={t('zones.water_point_number_hint')}
            error={errors.water_point_number}
            {...countInput(register, 'water_point_number')}
          />
        </div>
      </Card>

      <Card title={t('zones.section_modes')}>
        <fieldset className="space-y-4">
          <legend className="sr-only">{t('zones.section_modes')}</legend>
          <Checkbox
            label={
              <ModeLabel
                title={t('zones.scheduled_closing_authorised')}
                hint={t('zones.scheduled_closing_hint')}
              />
            }
            error={errors.scheduled_closing_authorised}
            {...register('scheduled_closing_authorised')}
          />
          <Checkbox
            label={
              <ModeLabel
                title={t('zones.leak_detection_mode')}
                hint={t('zones.leak_detection_hint', { hours: LEAK_FLOW_S / 3600 })}
              />
            }
            error={errors.leak_detection_mode}
            {...register('leak_detection_mode')}
            disabled={!mayControlValves}
          />
          <Checkbox
            label={<ModeLabel title={t('zones.maintenance_mode')} hint={t('zones.maintenance_hint')} />}
            error={errors.maintenance_mode}
            {...register('maintenance_mode')}
            disabled={!mayControlValves}
          />
          {!mayControlValves && <Alert tone="info">{t('zones.valves_denied')}</Alert>}
        </fieldset>
      </Card>

      <Card title={t('zones.section_hours')}>
        <div className="space-y-4">
          <Checkbox
            name="same_hours"
            label={t('zones.same_hours')}
            checked={!ownHours}
            onChange={(event) => followBuildingHours(event.target.checked)}
          />
          {ownHours ? (
            <OpeningHoursInput
              control={control}
              name="opening_hours"
              legend={t('zones.own_hours')}
              hint={t('zones.own_hours_hint')}
              firstDayOfWeek={building.first_day_of_week}
            />
          ) : (
            <div className="space-y-2">
              <p className="text-sm text-slate-600 dark:text-slate-400">{t('zones.building_applies')}</p>
              {building.opening_hours ? (
                <OpeningHoursTable
                  hours={building.opening_hours}
                  firstDayOfWeek={building.first_day_of_week}
                  weekend={building.weekend}
                />
              ) : (
                <p className="text-sm font-medium">{t('zones.no_hours')}</p>
              )}
            </div>
          )}
        </div>
      </Card>

      <Card title={t('zones.section_price')}>
        <div className="space-y-4">
          <Checkbox
            name="same_price"
            label={t('zones.same_price')}
            checked={!ownPrice}
            onChange={(event) => followBuildingPrice(event.target.checked)}
          />
          {ownPrice ? (
            <TextField
              label={t('zones.price_per_unit', { unit, currency: building.currency })}
              hint={t('zones.price_hint')}
              error={errors.price_per_unit}
              className="max-w-xs"
              {...decimalInput(register, 'price_per_unit')}
            />
          ) : (
            <p className="text-sm text-slate-600 dark:text-slate-400">
              {t('zones.building_applies')}{' '}
              <span className="font-medium text-slate-900 dark:text-slate-100">
                <PriceText
                  price={building.price_per_unit}
                  currency={building.currency}
                  volumeUnit={building.volume_unit}
                />
              </span>
            </p>
          )}
        </div>
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

function ModeLabel({ title, hint }: { title: string; hint: string }) {
  return (
    <>
      <span className="font-medium">{title}</span>
      <span className="block text-xs text-slate-500 dark:text-slate-400">{hint}</span>
    </>
  );
}
