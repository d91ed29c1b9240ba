import { FIRMWARE_MAX_BYTES, FLOWBOX_MODELS } from '@flowbox/shared';
import { useId, useState, type DragEvent } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Alert } from '../../../components/Alert.tsx';
import { Button } from '../../../components/Button.tsx';
import { Card } from '../../../components/Card.tsx';
import { FormActions } from '../../../components/FormActions.tsx';
import { TextArea } from '../../../components/TextArea.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { applyServerErrors } from '../../../lib/forms.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useCustomers } from '../../customers/index.ts';
import { useUploadImage } from '../api/upload-image.ts';
import { formatPercent, formatSize } from '../format.ts';
import {
  emptyUploadValues,
  toImageInput,
  uploadFieldProblems,
  uploadProblem,
  valuesFromFileName,
  type UploadFormValues,
} from '../upload.ts';
import { ChoiceCheckboxes } from './ChoiceCheckboxes.tsx';
import { ProgressBar } from './ProgressBar.tsx';

const FIELDS = ['version', 'models', 'notes_en', 'notes_fr', 'customer_ids'];

/** The customers an image may be released to, for a provider manager. */
function CustomerChoices({
  value,
  onChange,
  error,
}: {
  value: string[];
  onChange: (ids: string[]) => void;
  error?: { type: string; message?: string };
}) {
  const { t } = useLanguage();
  const customers = useCustomers({ limit: 500, offset: 0 });
  if (!customers.data) return <p className="text-sm text-slate-500">{t('common.loading')}</p>;
  return (
    <ChoiceCheckboxes
      legend={t('firmware.upload.customers')}
      name="customer_ids"
      options={customers.data.items.map((c) => ({ value: c.id, label: c.name }))}
      value={value}
      onChange={onChange}
      error={error}
      required
    />
  );
}

/** The file, dropped on the zone or picked with the button (which the keyboard reaches). */
function FileDropZone({
  file,
  onFile,
  problem,
}: {
  file: File | null;
  onFile: (file: File | null) => void;
  problem: string | null;
}) {
  const { t, language } = useLanguage();
  const inputId = useId();
  const hintId = `${inputId}-hint`;
  const [dragging, setDragging] = useState(false);
  const drop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    onFile(event.dataTransfer.files[0] ?? null);
  };
  return (
    <div
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={drop}
      data-testid="firmware-drop-zone"
      className={`rounded-xl border-2 border-dashed px-4 py-6 text-center ${
        dragging ? 'border-sky-500 bg-sky-50 dark:bg-sky-950/40' : 'border-slate-300 dark:border-slate-700'
      }`}
    >
      <p className="text-sm text-slate-700 dark:text-slate-300">{t('firmware.upload.drop')}</p>
      <div className="mt-3 inline-block rounded-lg focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-sky-600">
        <label
          htmlFor={inputId}
          className="inline-flex cursor-pointer items-center rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 shadow-sm hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700"
        >
          {file ? t('firmware.upload.choose_other') : t('firmware.upload.choose')}
        </label>
        <input
          id={inputId}
          type="file"
          // The card opens on the provider's request: the keyboard lands on its first step.
          autoFocus
          accept=".bin,application/octet-stream"
          aria-describedby={hintId}
          aria-invalid={problem ? true : undefined}
          onChange={(event) => onFile(event.target.files?.[0] ?? null)}
          className="sr-only"
        />
      </div>
      <p id={hintId} className="mt-2 text-xs text-slate-500 dark:text-slate-400">
        {file
          ? t('firmware.upload.chosen', { name: file.name, size: formatSize(file.size, language) })
          : t('firmware.upload.hint', { max: FIRMWARE_MAX_BYTES / (1024 * 1024) })}
      </p>
      {problem && (
        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
          {problem}
        </p>
      )}
    </div>
  );
}

/**
 * Uploads a firmware image (docs/firmware.md "Catalogue", provider managers): the file, its version
 * and models (read from a conventional file name), notes in English and French, and to whom it is
 * released. The bar follows the bytes sent; the server's refusal (naming, size, duplicate) is shown
 * in its own words.
 */
export function FirmwareUploadCard({ onClose }: { onClose: () => void }) {
  const { t, language } = useLanguage();
  const toast = useToast();
  const upload = useUploadImage();
  const [file, setFile] = useState<File | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const headingId = useId();
  const {
    register,
    control,
    handleSubmit,
    setValue,
    getValues,
    setError,
    clearErrors,
    formState: { errors },
  } = useForm<UploadFormValues>({ defaultValues: emptyUploadValues });
  const release = useWatch({ control, name: 'release' });

  function choose(next: File | null) {
    setFailure(null);
    setFileProblem(null);
    setFile(next);
    if (!next) return;
    const filled = valuesFromFileName(next.name, getValues());
    setValue('version', filled.version);
    setValue('models', filled.models);
  }

  const submit = handleSubmit(async (values) => {
    clearErrors();
    setFailure(null);
    setFileProblem(null);
    const problems = uploadFieldProblems(values, language);
    for (const { field, message } of problems) setError(field, { type: 'rule', message });
    const problem = file ? uploadProblem(file, values, language) : t('firmware.upload.file_required');
    setFileProblem(problem);
    if (problems.length > 0 || problem || !file) return;
    try {
      const image = await upload.mutateAsync({ input: toImageInput(values), file });
      toast.success(t('firmware.upload.done', { version: image.version }));
      onClose();
    } catch (error) {
      setFailure(applyServerErrors(error, setError, FIELDS));
    }
  });

  // Announced every tenth, not every event: a screen reader cannot keep up with a busy upload.
  const announced = upload.progress === null ? null : Math.floor(upload.progress * 10) * 10;
  return (
    <Card title={t('firmware.upload.title')} headingId={headingId}>
      <form onSubmit={submit} noValidate className="space-y-5" aria-labelledby={headingId}>
        {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
        <FileDropZone file={file} onFile={choose} problem={fileProblem} />
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <TextField
            label={t('firmware.version')}
            required
            autoComplete="off"
            placeholder="2.5.0"
            hint={t('firmware.upload.version_hint')}
            error={errors.version}
            {...register('version')}
          />
          <Controller
            control={control}
            name="models"
            render={({ field, fieldState }) => (
              <ChoiceCheckboxes
                legend={t('firmware.models')}
                name={field.name}
                options={FLOWBOX_MODELS.map((m) => ({ value: m, label: t(`zones.flowbox_model.${m}`) }))}
                value={field.value}
                onChange={field.onChange}
                error={fieldState.error}
                required
              />
            )}
          />
          <TextArea
            label={t('firmware.notes_en')}
            maxLength={4000}
            error={errors.notes_en}
            {...register('notes_en')}
          />
          <TextArea
            label={t('firmware.notes_fr')}
            maxLength={4000}
            error={errors.notes_fr}
            {...register('notes_fr')}
          />
        </div>
        <fieldset>
          <legend className="mb-1 text-sm font-medium text-slate-800 dark:text-slate-200">
            {t('firmware.upload.release')}
          </legend>
          <div className="flex flex-wrap gap-x-5 gap-y-2 text-sm">
            {(['all', 'customers'] as const).map((choice) => (
              <label key={choice} className="flex items-center gap-2">
                <input
                  type="radio"
                  value={choice}
                  className="h-4 w-4 accent-sky-700"
                  {...register('release')}
                />
                {t(`firmware.upload.release_${choice}`)}
              </label>
            ))}
          </div>
        </fieldset>
        {release === 'customers' && (
          <Controller
            control={control}
            name="customer_ids"
            render={({ field, fieldState }) => (
              <CustomerChoices value={field.value} onChange={field.onChange} error={fieldState.error} />
            )}
          />
        )}
        <div className="space-y-1">
          {upload.progress !== null && (
            <ProgressBar pct={upload.progress * 100} label={t('firmware.upload.progress_label')} />
          )}
          {/* Always in the page, so that screen readers hear its first change too. */}
          <p aria-live="polite" className="text-xs text-slate-600 dark:text-slate-400">
            {announced === null
              ? ''
              : announced >= 100
                ? t('firmware.upload.checking')
                : t('firmware.upload.sending', { pct: formatPercent(announced, language) })}
          </p>
        </div>
        <FormActions>
          <Button variant="secondary" onClick={onClose} disabled={upload.isPending}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={upload.isPending}>
            {t('firmware.upload.submit')}
          </Button>
        </FormActions>
      </form>
    </Card>
  );
}
