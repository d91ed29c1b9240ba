import { zodResolver } from '@hookform/resolvers/zod';
import {
  LANGUAGES,
  REPORT_FORMATS,
  REPORT_FREQUENCIES,
  ReportScheduleInputSchema,
  type ReportRecipient,
  type ReportSchedule,
  type ReportScheduleInput,
} from '@flowbox/shared';
import { useForm, type FieldError as HookFieldError } from 'react-hook-form';
import type { z } from 'zod';
import { Alert } from '../../../components/Alert.tsx';
import { Button } from '../../../components/Button.tsx';
import { Checkbox } from '../../../components/Checkbox.tsx';
import { FieldError } from '../../../components/FieldError.tsx';
import { Select } from '../../../components/Select.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { useFormSubmit } from '../../../lib/forms.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';

const FIELDS = ['name', 'frequency', 'formats', 'language', 'recipient_ids', 'enabled'] as const;

/** A report schedule's name, frequency, formats, language and recipients: added, or changed. */
export function ReportScheduleForm({
  schedule,
  recipients,
  onSave,
  onCancel,
}: {
  schedule?: ReportSchedule;
  recipients: ReportRecipient[];
  onSave: (input: ReportScheduleInput) => Promise<unknown>;
  onCancel: () => void;
}) {
  const { t, language } = useLanguage();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof ReportScheduleInputSchema>, unknown, ReportScheduleInput>({
    resolver: zodResolver(ReportScheduleInputSchema),
    defaultValues: {
      name: schedule?.name ?? '',
      frequency: schedule?.frequency ?? 'monthly',
      formats: schedule?.formats ?? ['pdf', 'csv'],
      language: schedule?.language ?? language,
      recipient_ids: schedule?.recipients.map((r) => r.id) ?? [],
      enabled: schedule?.enabled ?? true,
    },
  });
  const { submit, failure } = useFormSubmit({ handleSubmit, setError }, FIELDS, onSave);
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
      <TextField label={t('reports.name')} required error={errors.name} {...register('name')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Select
          label={t('reports.frequency')}
          required
          options={REPORT_FREQUENCIES.map((value) => ({ value, label: t(`reports.frequency.${value}`) }))}
          error={errors.frequency}
          {...register('frequency')}
        />
        <Select
          label={t('reports.language')}
          required
          options={LANGUAGES.map((value) => ({ value, label: t(`reports.language.${value}`) }))}
          error={errors.language}
          {...register('language')}
        />
      </div>
      <fieldset aria-describedby={errors.formats ? 'report-formats-error' : undefined}>
        <legend className="text-sm font-medium">{t('reports.formats')}</legend>
        <div className="mt-2 flex gap-4">
          {REPORT_FORMATS.map((format) => (
            <Checkbox key={format} label={format.toUpperCase()} value={format} {...register('formats')} />
          ))}
        </div>
        <FieldError id="report-formats-error" error={errors.formats as HookFieldError | undefined} />
      </fieldset>
      <fieldset aria-describedby="report-recipients-hint">
        <legend className="text-sm font-medium">{t('reports.recipients')}</legend>
        <p id="report-recipients-hint" className="text-xs text-slate-600 dark:text-slate-400">
          {t('reports.recipients_hint')}
        </p>
        {recipients.length === 0 ? (
          <p className="mt-2 text-sm">{t('reports.recipients_none')}</p>
        ) : (
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {recipients.map((user) => (
              <Checkbox
                key={user.id}
                label={`${user.name} (${user.email})`}
                value={user.id}
                {...register('recipient_ids')}
              />
            ))}
          </div>
        )}
        <FieldError id="report-recipients-error" error={errors.recipient_ids as HookFieldError | undefined} />
      </fieldset>
      <Checkbox label={t('reports.enabled')} {...register('enabled')} />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="secondary" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" loading={isSubmitting}>
          {t('common.save')}
        </Button>
      </div>
    </form>
  );
}
