import { zodResolver } from '@hookform/resolvers/zod';
import { SiteCreateSchema, type SiteCreateInput } from '@flowbox/shared';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { Alert } from '../../../components/Alert.tsx';
import { Button, ButtonLink } from '../../../components/Button.tsx';
import { Card } from '../../../components/Card.tsx';
import { FormActions } from '../../../components/FormActions.tsx';
import { NameField } from '../../../components/forms/NameField.tsx';
import { useFormSubmit } from '../../../lib/forms.ts';
import { CoordinateFields, coordinateValue } from '../../../components/maps/CoordinateFields.tsx';

export type SiteFormProps = {
  defaultName?: string;
  /** Where the site is on the map (docs/maps.md); none for a new site unless placed. */
  defaultCoordinates?: { latitude: number | null; longitude: number | null };
  submitLabel: string;
  cancelTo: string;
  onSubmit: (values: z.output<typeof SiteCreateSchema>) => Promise<unknown>;
};

export function SiteForm({
  defaultName = '',
  defaultCoordinates = { latitude: null, longitude: null },
  submitLabel,
  cancelTo,
  onSubmit,
}: SiteFormProps) {
  const { t } = useTranslation();
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    control,
    formState: { errors, isSubmitting },
  } = useForm<SiteCreateInput, unknown, z.output<typeof SiteCreateSchema>>({
    resolver: zodResolver(SiteCreateSchema),
    defaultValues: { name: defaultName, ...defaultCoordinates },
  });

  const { submit, failure } = useFormSubmit(
    { handleSubmit, setError },
    ['name', 'latitude', 'longitude'],
    async (values) => {
      await onSubmit(values);
    },
  );

  const [latitude, longitude] = useWatch({ control, name: ['latitude', 'longitude'] });
  const number = { setValueAs: coordinateValue };

  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
      <Card>
        <NameField error={errors.name} className="max-w-md" {...register('name')} />
      </Card>
      <Card>
        <CoordinateFields
          latitude={{ value: latitude ?? null, error: errors.latitude, input: register('latitude', number) }}
          longitude={{
            value: longitude ?? null,
            error: errors.longitude,
            input: register('longitude', number),
          }}
          onPick={(lat, lng) => {
            setValue('latitude', lat, { shouldDirty: true });
            setValue('longitude', lng, { shouldDirty: true });
          }}
        />
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
