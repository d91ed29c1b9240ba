import { ACQUISITION_TYPES, BILLING_TYPES, CURRENCIES, type PricingPlan } from '@flowbox/shared';
import { useState } from 'react';
import { useFieldArray, useForm, useWatch, type Path } from 'react-hook-form';
import { Alert } from '../../../components/Alert.tsx';
import { Button, ButtonLink } from '../../../components/Button.tsx';
import { Card } from '../../../components/Card.tsx';
import { Checkbox } from '../../../components/Checkbox.tsx';
import { FormActions } from '../../../components/FormActions.tsx';
import { DateInput } from '../../../components/forms/DateInput.tsx';
import { NameField } from '../../../components/forms/NameField.tsx';
import { VolumeUnitSelect } from '../../../components/forms/VolumeUnitSelect.tsx';
import { Select } from '../../../components/Select.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { useFormSubmit } from '../../../lib/forms.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { emptyRange, planFormValues, planProblems, type PlanFormValues } from '../plan-form.ts';

const FIELDS = [
  'name',
  'is_default',
  'regions',
  'billing_type',
  'acquisition_type',
  'currency',
  'volume_unit',
  'from_date',
  'ranges',
];

type PricingPlanFormProps = {
  /** The plan being edited; without it the form starts a new one. */
  plan?: PricingPlan;
  today: string;
  submitLabel: string;
  cancelTo: string;
  /** Receives the checked values; throw to show the server's errors. */
  onSubmit: (values: PlanFormValues) => Promise<unknown>;
};

/**
 * A pricing plan (spec §3) with its price ranges, checked by the shared rules of spec §5 before it
 * is sent, each problem shown on its range; the server checks the same again.
 */
export function PricingPlanForm({ plan, today, submitLabel, cancelTo, onSubmit }: PricingPlanFormProps) {
  const { t } = useLanguage();
  const [defaults] = useState(() => planFormValues(plan, today));
  const {
    register,
    control,
    handleSubmit,
    setError,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<PlanFormValues>({ defaultValues: defaults });
  const ranges = useFieldArray({ control, name: 'ranges' });
  const rows = useWatch({ control, name: 'ranges' });

  const { submit, failure } = useFormSubmit({ handleSubmit, setError }, FIELDS, async (values) => {
    clearErrors();
    const problems = planProblems(values);
    for (const problem of problems)
      setError(problem.field as Path<PlanFormValues>, { type: 'rule', message: problem.message });
    if (problems.length > 0) return;
    await onSubmit(values);
  });

  function addRange() {
    const last = rows.at(-1);
    // The new range follows the last one, which therefore gets an end.
    if (last) ranges.update(rows.length - 1, { ...last, no_end: false });
    ranges.append(emptyRange(last?.volume_end ?? ''));
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
      <Card title={t('billing.section_plan')}>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <NameField error={errors.name} {...register('name')} />
          <TextField
            label={t('billing.field.regions')}
            hint={t('billing.field.regions_hint')}
            required
            autoComplete="off"
            error={errors.regions}
            {...register('regions')}
          />
          <Checkbox label={t('billing.field.is_default')} {...register('is_default')} />
        </div>
      </Card>
      <Card title={t('billing.section_price')}>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
          <Select
            label={t('billing.field.billing_type')}
            required
            options={BILLING_TYPES.map((v) => ({ value: v, label: t(`billing.billing_type.${v}`) }))}
            error={errors.billing_type}
            {...register('billing_type')}
          />
          <Select
            label={t('billing.field.acquisition_type')}
            required
            options={ACQUISITION_TYPES.map((v) => ({ value: v, label: t(`billing.acquisition_type.${v}`) }))}
            error={errors.acquisition_type}
            {...register('acquisition_type')}
          />
          <Select
            label={t('billing.field.currency')}
            required
            options={CURRENCIES.map((v) => ({ value: v, label: v }))}
            error={errors.currency}
            {...register('currency')}
          />
          <VolumeUnitSelect
            label={t('billing.field.volume_unit')}
            error={errors.volume_unit}
            {...register('volume_unit')}
          />
          <DateInput control={control} name="from_date" label={t('billing.field.from_date')} required />
          {plan && (
            <Checkbox
              label={
                <>
                  <span className="font-medium">{t('billing.field.new_price')}</span>
                  <span className="block text-slate-600 dark:text-slate-400">
                    {t('billing.field.new_price_hint')}
                  </span>
                </>
              }
              className="sm:col-span-3"
              {...register('new_price')}
            />
          )}
        </div>
      </Card>
      <Card title={t('billing.section_ranges')}>
        <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">{t('billing.ranges_hint')}</p>
        <ol className="space-y-4">
          {ranges.fields.map((field, index) => {
            const isLast = index === ranges.fields.length - 1;
            const rowErrors = errors.ranges?.[index];
            return (
              <li key={field.id} className="rounded-lg border border-slate-200 p-3 dark:border-slate-700">
                <fieldset className="grid grid-cols-1 items-start gap-3 sm:grid-cols-4">
                  <legend className="sr-only">{t('billing.range', { n: index + 1 })}</legend>
                  <TextField
                    label={t('billing.field.volume_start')}
                    inputMode="decimal"
                    autoComplete="off"
                    error={rowErrors?.volume_start}
                    {...register(`ranges.${index}.volume_start`)}
                  />
                  <div>
                    <TextField
                      label={t('billing.field.volume_end')}
                      inputMode="decimal"
                      autoComplete="off"
                      error={rowErrors?.volume_end}
                      {...register(`ranges.${index}.volume_end`)}
                    />
                    {isLast && (
                      <Checkbox
                        className="mt-2"
                        label={t('billing.field.no_end')}
                        {...register(`ranges.${index}.no_end`)}
                      />
                    )}
                  </div>
                  <TextField
                    label={t('billing.field.price_per_unit')}
                    inputMode="decimal"
                    autoComplete="off"
                    error={rowErrors?.price_per_unit}
                    {...register(`ranges.${index}.price_per_unit`)}
                  />
                  <div className="sm:pt-6">
                    {ranges.fields.length > 1 && (
                      <Button type="button" variant="secondary" onClick={() => ranges.remove(index)}>
                        {t('billing.remove_range', { n: index + 1 })}
                      </Button>
                    )}
                  </div>
                </fieldset>
              </li>
            );
          })}
        </ol>
        <div className="mt-4">
          <Button type="button" variant="secondary" onClick={addRange}>
            {t('billing.add_range')}
          </Button>
        </div>
      </Card>
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
