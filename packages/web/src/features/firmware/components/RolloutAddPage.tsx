import { ROLES, ROLLOUT_MAX_WAVES, type FirmwareImage } from '@flowbox/shared';
import { useState } from 'react';
import { Controller, FormProvider, useFieldArray, useForm, useFormContext, type Path } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { Alert } from '../../../components/Alert.tsx';
import { Button, ButtonLink } from '../../../components/Button.tsx';
import { Card } from '../../../components/Card.tsx';
import { Checkbox } from '../../../components/Checkbox.tsx';
import { FieldError } from '../../../components/FieldError.tsx';
import { FormActions } from '../../../components/FormActions.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { useFormSubmit } from '../../../lib/forms.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { useUser } from '../../auth/index.ts';
import { useCreateRollout } from '../api/create-rollout.ts';
import { useImage } from '../api/get-image.ts';
import {
  rolloutFormValues,
  rolloutProblems,
  toRolloutInput,
  type RolloutFormValues,
} from '../rollout-form.ts';
import { ChoiceCheckboxes } from './ChoiceCheckboxes.tsx';
import { ModelsText } from './ModelsText.tsx';
import { PlacePickers } from './PlacePickers.tsx';

const FIELDS = [
  'customer_id',
  'site_id',
  'building_id',
  'zone_id',
  'models',
  'from_versions',
  'waves',
  'start_jitter_s',
  'max_concurrent',
  'failure_threshold_pct',
  'during_opening_hours',
];

/** The waves' cumulative percentages, one box each, added and removed in place. */
function WavesField() {
  const { t } = useLanguage();
  const form = useFormContext<RolloutFormValues>();
  const waves = useFieldArray({ control: form.control, name: 'waves' });
  const errors = form.formState.errors.waves;
  return (
    <fieldset aria-describedby={errors?.root ? 'waves-error' : undefined}>
      <legend className="mb-1 text-sm font-medium text-slate-800 dark:text-slate-200">
        {t('firmware.waves')}
      </legend>
      <p className="mb-2 text-xs text-slate-500 dark:text-slate-400">{t('firmware.waves_hint')}</p>
      <ol className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {waves.fields.map((wave, index) => (
          <li key={wave.id}>
            <TextField
              label={t('firmware.wave_n', { wave: index + 1 })}
              inputMode="decimal"
              autoComplete="off"
              error={errors?.[index]?.pct}
              addon={
                waves.fields.length > 1 ? (
                  <Button
                    variant="ghost"
                    className="px-2"
                    onClick={() => waves.remove(index)}
                    aria-label={t('firmware.wave_remove', { wave: index + 1 })}
                  >
                    ×
                  </Button>
                ) : undefined
              }
              {...form.register(`waves.${index}.pct`)}
            />
          </li>
        ))}
      </ol>
      <FieldError id="waves-error" error={errors?.root} />
      {waves.fields.length < ROLLOUT_MAX_WAVES && (
        <Button variant="secondary" className="mt-3" onClick={() => waves.append({ pct: '100' })}>
          {t('firmware.wave_add')}
        </Button>
      )}
    </fieldset>
  );
}

/** A rollout's limits (docs/firmware.md): start delay, concurrency, failure threshold, opening hours. */
function LimitsFields() {
  const { t } = useLanguage();
  const { register, formState } = useFormContext<RolloutFormValues>();
  const { errors } = formState;
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
      <TextField
        label={t('firmware.start_jitter')}
        hint={t('firmware.start_jitter_hint')}
        inputMode="numeric"
        autoComplete="off"
        error={errors.start_jitter_s}
        {...register('start_jitter_s')}
      />
      <TextField
        label={t('firmware.max_concurrent')}
        hint={t('firmware.max_concurrent_hint')}
        inputMode="numeric"
        autoComplete="off"
        error={errors.max_concurrent}
        {...register('max_concurrent')}
      />
      <TextField
        label={t('firmware.failure_threshold')}
        hint={t('firmware.failure_threshold_hint')}
        inputMode="decimal"
        autoComplete="off"
        error={errors.failure_threshold_pct}
        {...register('failure_threshold_pct')}
      />
      <Checkbox
        className="sm:col-span-3"
        label={t('firmware.opening_hours_field')}
        error={errors.during_opening_hours}
        {...register('during_opening_hours')}
      />
    </div>
  );
}

function RolloutForm({ image }: { image: FirmwareImage }) {
  const { t, language } = useLanguage();
  const user = useUser();
  const toast = useToast();
  const navigate = useNavigate();
  const create = useCreateRollout();
  const provider = user.role === ROLES.flovea_manager;
  const siteRequired = user.role === ROLES.site_manager;
  const [defaults] = useState(() => rolloutFormValues(image, provider ? null : user.customer_id));
  const form = useForm<RolloutFormValues>({ defaultValues: defaults });
  const { register, control, setError, clearErrors, formState } = form;

  const { submit, failure } = useFormSubmit(form, FIELDS, async (values) => {
    clearErrors();
    const input = toRolloutInput(image.id, values);
    const problems = rolloutProblems(input, language, { siteRequired });
    for (const problem of problems) {
      const field = problem.field === 'waves' ? 'waves.root' : problem.field;
      setError(field as Path<RolloutFormValues>, { type: 'rule', message: problem.message });
    }
    if (problems.length > 0) return;
    const rollout = await create.mutateAsync(input);
    toast.success(t('firmware.rollout_started', { version: image.version }));
    await navigate(paths.firmwareRollout.getHref(rollout.id));
  });

  return (
    <FormProvider {...form}>
      <form onSubmit={submit} noValidate className="space-y-6">
        {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
        <Card title={t('firmware.section_place')}>
          <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">
            {t('firmware.section_place_hint')}
          </p>
          <PlacePickers provider={provider} siteRequired={siteRequired} />
        </Card>
        <Card title={t('firmware.section_devices')}>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <Controller
              control={control}
              name="models"
              render={({ field, fieldState }) => (
                <ChoiceCheckboxes
                  legend={t('firmware.models')}
                  name={field.name}
                  options={image.models.map((m) => ({ value: m, label: t(`zones.flowbox_model.${m}`) }))}
                  value={field.value}
                  onChange={field.onChange}
                  error={fieldState.error}
                  required
                />
              )}
            />
            <TextField
              label={t('firmware.from_versions')}
              hint={t('firmware.from_versions_hint')}
              autoComplete="off"
              placeholder="2.4.0, 2.4.1"
              error={formState.errors.from_versions}
              {...register('from_versions')}
            />
          </div>
        </Card>
        <Card title={t('firmware.section_pace')}>
          <div className="space-y-6">
            <WavesField />
            <LimitsFields />
          </div>
        </Card>
        <FormActions>
          <ButtonLink to={paths.firmware.getHref()} variant="secondary">
            {t('common.cancel')}
          </ButtonLink>
          <Button type="submit" loading={formState.isSubmitting}>
            {t('firmware.rollout_start')}
          </Button>
        </FormActions>
      </form>
    </FormProvider>
  );
}

/** A new rollout of one image (/firmware/rollouts/add?image_id=…), the image chosen in the catalogue. */
export function RolloutAddPage() {
  const { t } = useLanguage();
  const [params] = useSearchParams();
  const imageId = params.get('image_id');
  if (!imageId)
    return (
      <>
        <PageHeader title={t('firmware.rollout_new_title')} />
        <Alert tone="info">
          {t('firmware.rollout_pick_image')}{' '}
          <ButtonLink to={paths.firmware.getHref()} variant="secondary" className="ml-2">
            {t('firmware.catalogue')}
          </ButtonLink>
        </Alert>
      </>
    );
  return <ImageRollout imageId={imageId} />;
}

function ImageRollout({ imageId }: { imageId: string }) {
  const { t } = useLanguage();
  const image = useImage(imageId);
  return (
    <QueryBoundary query={image}>
      {(data) => (
        <>
          <PageHeader
            title={t('firmware.rollout_new', { version: data.version })}
            description={
              <>
                {data.file_name} · <ModelsText models={data.models} />
              </>
            }
            breadcrumbs={[
              { label: t('firmware.title'), to: paths.firmware.getHref() },
              { label: t('firmware.rollouts'), to: paths.firmwareRollouts.getHref() },
            ]}
          />
          {data.status === 'withdrawn' ? (
            <Alert>{t('errors.firmware_withdrawn')}</Alert>
          ) : (
            <RolloutForm key={data.id} image={data} />
          )}
        </>
      )}
    </QueryBoundary>
  );
}
