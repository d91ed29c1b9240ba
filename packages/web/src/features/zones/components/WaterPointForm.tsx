import { zodResolver } from '@hookform/resolvers/zod';
import { WATER_POINT_TYPES, WaterPointCreateSchema, type WaterPointCreateInput } from '@flowbox/shared';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/Alert.tsx';
import { Button, ButtonLink } from '../../../components/Button.tsx';
import { FormActions } from '../../../components/FormActions.tsx';
import { Select } from '../../../components/Select.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { useFormSubmit } from '../../../lib/forms.ts';
import { decimalInput } from '../../../lib/form-values.ts';
import { parseOptionalText, type WaterPointValues } from '../form-values.ts';

const FIELDS = ['label', 'type', 'location', 'nominal_flow_lpm'];

export type WaterPointFormProps = {
  /** Starting values (an existing water point: `waterPointFormValues(point)`). */
  defaultValues?: WaterPointCreateInput;
  submitLabel: string;
  /** Cancel as a link (a page) or as an action (a dialog); with neither, no Cancel is shown. */
  cancelTo?: string;
  onCancel?: () => void;
  /** Receives the checked values; a rejection with an API error is shown on the fields and above. */
  onSubmit: (values: WaterPointValues) => Promise<unknown>;
};

/** A water point (spec §3, docs/hierarchy.md): what a plumber needs to find and size it. */
export function WaterPointForm({
  defaultValues,
  submitLabel,
  cancelTo,
  onCancel,
  onSubmit,
}: WaterPointFormProps) {
  const { t } = useTranslation();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<WaterPointCreateInput, unknown, WaterPointValues>({
    resolver: zodResolver(WaterPointCreateSchema),
    defaultValues: { location: null, nominal_flow_lpm: null, ...defaultValues },
  });

  const { submit, failure } = useFormSubmit({ handleSubmit, setError }, FIELDS, async (values) => {
    await onSubmit(values);
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label={t('water_points.label')}
          maxLength={120}
          required
          autoComplete="off"
          error={errors.label}
          {...register('label')}
        />
        <Select
          label={t('water_points.type')}
          required
          options={WATER_POINT_TYPES.map((value) => ({ value, label: t(`water_points.type.${value}`) }))}
          error={errors.type}
          {...register('type')}
        />
        <TextField
          label={t('water_points.location')}
          maxLength={200}
          autoComplete="off"
          hint={t('water_points.location_hint')}
          error={errors.location}
          {...register('location', { setValueAs: parseOptionalText })}
        />
        <TextField
          label={t('water_points.nominal_flow')}
          hint={t('water_points.nominal_flow_hint')}
          error={errors.nominal_flow_lpm}
          {...decimalInput(register, 'nominal_flow_lpm')}
        />
      </div>
      <FormActions>
        {cancelTo && (
          <ButtonLink to={cancelTo} variant="secondary">
            {t('common.cancel')}
          </ButtonLink>
        )}
        {onCancel && (
          <Button variant="secondary" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
        )}
        <Button type="submit" loading={isSubmitting}>
          {submitLabel}
        </Button>
      </FormActions>
    </form>
  );
}
