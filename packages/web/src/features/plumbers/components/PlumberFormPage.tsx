import { zodResolver } from '@hookform/resolvers/zod';
import {
  PLUMBER_SPECIALITIES,
  PlumberCreateSchema,
  ROLES,
  type Plumber,
  type PlumberCreateInput,
} from '@flowbox/shared';
import { useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { Alert } from '../../../components/Alert.tsx';
import { Button, ButtonLink } from '../../../components/Button.tsx';
import { Card } from '../../../components/Card.tsx';
import { Checkbox } from '../../../components/Checkbox.tsx';
import { FormActions } from '../../../components/FormActions.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { Select } from '../../../components/Select.tsx';
import { TextArea } from '../../../components/TextArea.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { useFormSubmit } from '../../../lib/forms.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useRequiredParam } from '../../../lib/params.ts';
import { paths } from '../../../paths.ts';
import { useUser } from '../../auth/index.ts';
import { useCustomers } from '../../customers/index.ts';
import { CoordinateFields, coordinateValue } from '../../../components/maps/CoordinateFields.tsx';
import { usePlumber } from '../api/get-plumber.ts';
import { useSavePlumber } from '../api/save-plumber.ts';

const FIELDS = [
  'company',
  'contact_name',
  'phone',
  'email',
  'address',
  'latitude',
  'longitude',
  'service_radius_km',
  'specialities',
  'availability',
  'customer_id',
] as const;

const SHARED = 'shared';

function PlumberForm({ plumber }: { plumber?: Plumber }) {
  const { t } = useLanguage();
  const user = useUser();
  const toast = useToast();
  const navigate = useNavigate();
  const save = useSavePlumber(plumber?.id);
  const isProvider = user.role === ROLES.flovea_manager;
  const customers = useCustomers({ limit: 500, offset: 0 });
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    control,
    formState: { errors, isSubmitting },
  } = useForm<PlumberCreateInput, unknown, z.output<typeof PlumberCreateSchema>>({
    resolver: zodResolver(PlumberCreateSchema),
    defaultValues: {
      company: plumber?.company ?? '',
      contact_name: plumber?.contact_name ?? '',
      phone: plumber?.phone ?? '',
      email: plumber?.email ?? '',
      address: plumber?.address ?? '',
      latitude: plumber?.latitude ?? null,
      longitude: plumber?.longitude ?? null,
      service_radius_km: plumber?.service_radius_km ?? null,
      specialities: plumber?.specialities ?? [],
      availability: plumber?.availability ?? '',
      customer_id: plumber ? plumber.customer_id : isProvider ? null : user.customer_id,
    },
  });
  const { submit, failure } = useFormSubmit({ handleSubmit, setError }, FIELDS, async (values) => {
    const { customer_id, ...fields } = values;
    await save.mutateAsync(plumber ? fields : { ...fields, customer_id });
    toast.success(t(plumber ? 'plumbers.updated' : 'plumbers.created'));
    await navigate(paths.plumbers.getHref());
  });
  const number = { setValueAs: coordinateValue };
  const [owner, latitude, longitude] = useWatch({ control, name: ['customer_id', 'latitude', 'longitude'] });

  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
      <Card>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label={t('plumbers.company')} required error={errors.company} {...register('company')} />
          <TextField
            label={t('plumbers.contact_name')}
            error={errors.contact_name}
            {...register('contact_name')}
          />
          <TextField label={t('plumbers.phone')} type="tel" error={errors.phone} {...register('phone')} />
          <TextField label={t('plumbers.email')} type="email" error={errors.email} {...register('email')} />
          <TextField
            label={t('plumbers.address')}
            className="sm:col-span-2"
            error={errors.address}
            {...register('address')}
          />
          {isProvider && !plumber && (
            <Select
              label={t('plumbers.owner_select')}
              name="owner"
              value={owner ?? SHARED}
              onChange={(e) => setValue('customer_id', e.target.value === SHARED ? null : e.target.value)}
              options={[
                { value: SHARED, label: t('plumbers.owner_shared_option') },
                ...(customers.data?.items ?? []).map((c) => ({ value: c.id, label: c.name })),
              ]}
            />
          )}
        </div>
      </Card>
      <Card>
        <CoordinateFields
          latitude={{
            value: latitude ?? null,
            error: errors.latitude,
            input: register('latitude', number),
          }}
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
        <TextField
          label={t('plumbers.service_radius')}
          inputMode="numeric"
          className="mt-4 max-w-xs"
          error={errors.service_radius_km}
          {...register('service_radius_km', number)}
        />
      </Card>
      <Card>
        <fieldset>
          <legend className="mb-2 text-sm font-semibold">{t('plumbers.specialities')}</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {PLUMBER_SPECIALITIES.map((s) => (
              <Checkbox
                key={s}
                label={t(`plumbers.speciality.${s}`)}
                value={s}
                {...register('specialities')}
              />
            ))}
          </div>
        </fieldset>
        <TextArea
          label={t('plumbers.availability')}
          className="mt-4"
          error={errors.availability}
          {...register('availability')}
        />
      </Card>
      <FormActions>
        <ButtonLink to={paths.plumbers.getHref()} variant="secondary">
          {t('common.cancel')}
        </ButtonLink>
        <Button type="submit" loading={isSubmitting}>
          {t('common.save')}
        </Button>
      </FormActions>
    </form>
  );
}

const crumbs = (label: string) => [{ label, to: paths.plumbers.getHref() }];

export function PlumberAddPage() {
  const { t } = useLanguage();
  return (
    <>
      <PageHeader title={t('plumbers.add_title')} breadcrumbs={crumbs(t('plumbers.title'))} />
      <PlumberForm />
    </>
  );
}

export function PlumberEditPage() {
  const { t } = useLanguage();
  const id = useRequiredParam('plumberId');
  const plumber = usePlumber(id);
  return (
    <>
      <PageHeader title={t('plumbers.edit_title')} breadcrumbs={crumbs(t('plumbers.title'))} />
      <QueryBoundary query={plumber}>{(p) => <PlumberForm plumber={p} />}</QueryBoundary>
    </>
  );
}
