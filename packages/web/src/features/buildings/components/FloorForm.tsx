import { zodResolver } from '@hookform/resolvers/zod';
import { FloorCreateSchema, type Floor, type FloorCreateInput } from '@flowbox/shared';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Alert } from '../../../components/Alert.tsx';
import { Button } from '../../../components/Button.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { useFormSubmit } from '../../../lib/forms.ts';
import { countInput } from '../../../lib/form-values.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';

export type FloorValues = z.output<typeof FloorCreateSchema>;

type FloorFormProps = {
  /** The floor being modified; without it the form adds one. */
  floor?: Floor;
  submitLabel: string;
  /** Without it no cancel button is shown. */
  onCancel?: () => void;
  /** Receives the checked values; throw to show the server's errors. */
  onSubmit: (values: FloorValues) => Promise<unknown>;
};

/** A floor's label and occupants (spec §3), checked by the shared schema; it never navigates. */
export function FloorForm({ floor, submitLabel, onCancel, onSubmit }: FloorFormProps) {
  const { t } = useLanguage();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<FloorCreateInput, unknown, FloorValues>({
    resolver: zodResolver(FloorCreateSchema),
    defaultValues: { label: floor?.label ?? '', occupants: floor?.occupants ?? null },
  });

  const { submit, failure } = useFormSubmit(
    { handleSubmit, setError },
    ['label', 'occupants'],
    async (values) => {
      await onSubmit(values);
      // Ready for the next floor when the form stays on screen (the assistant adds several).
      if (!floor) reset({ label: '', occupants: null });
    },
  );

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <TextField
          label={t('floors.label')}
          maxLength={120}
          required
          autoComplete="off"
          hint={t('floors.label_hint')}
          className="sm:col-span-2"
          error={errors.label}
          {...register('label')}
        />
        <TextField
          label={t('floors.occupants')}
          error={errors.occupants}
          {...countInput(register, 'occupants')}
        />
      </div>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {onCancel && (
          <Button variant="secondary" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
        )}
        <Button type="submit" loading={isSubmitting}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
