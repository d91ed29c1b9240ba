import { zodResolver } from '@hookform/resolvers/zod';
import { SiteCreateSchema, type SiteCreateInput } from '@flowbox/shared';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { Alert } from '../../../components/Alert.tsx';
import { Button, ButtonLink } from '../../../components/Button.tsx';
import { Card } from '../../../components/Card.tsx';
import { FormActions } from '../../../components/FormActions.tsx';
import { NameField } from '../../../components/forms/NameField.tsx';
import { useFormSubmit } from '../../../lib/forms.ts';

type SiteFormProps = {
  defaultName?: string;
  submitLabel: string;
  cancelTo: string;
  onSubmit: (values: z.output<typeof SiteCreateSchema>) => Promise<unknown>;
};

export function SiteForm({ defaultName = '', submitLabel, cancelTo, onSubmit }: SiteFormProps) {
  const { t } = useTranslation();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<SiteCreateInput, unknown, z.output<typeof SiteCreateSchema>>({
    resolver: zodResolver(SiteCreateSchema),
    defaultValues: { name: defaultName },
  });

  const { submit, failure } = useFormSubmit({ handleSubmit, setError }, ['name'], async (values) => {
    await onSubmit(values);
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
      <Card>
        <NameField error={errors.name} className="max-w-md" {...register('name')} />
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
