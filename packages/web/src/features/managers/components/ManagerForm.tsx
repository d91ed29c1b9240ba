import { zodResolver } from '@hookform/resolvers/zod';
import {
  ROLES,
  EndUserCreateSchema,
  EndUserUpdateSchema,
  ManagerCreateSchema,
  ManagerUpdateSchema,
  PlumberUserCreateSchema,
  PlumberUserUpdateSchema,
  SiteManagerCreateSchema,
  SiteManagerUpdateSchema,
  type SiteManagerCreateInput,
  type User,
} from '@flowbox/shared';
import { useForm, type Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { Alert } from '../../../components/Alert.tsx';
import { Button, ButtonLink } from '../../../components/Button.tsx';
import { Card } from '../../../components/Card.tsx';
import { FieldError } from '../../../components/FieldError.tsx';
import { FormActions } from '../../../components/FormActions.tsx';
import { useFormSubmit } from '../../../lib/forms.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import type { ManagerFamily } from '../family.ts';
import { IdentityFields } from '../../../components/forms/IdentityFields.tsx';

export type SiteOption = { id: string; name: string };
export type ManagerFormValues = z.output<typeof SiteManagerCreateSchema> & { zone_id?: string[] };
type FormInput = SiteManagerCreateInput & { zone_id?: string[] };

const FIELDS = ['firstname', 'lastname', 'email', 'language', 'address', 'site_id', 'zone_id'];

function schemaFor(family: ManagerFamily, mode: 'create' | 'edit') {
  if (family.role === ROLES.site_manager)
    return mode === 'create' ? SiteManagerCreateSchema : SiteManagerUpdateSchema;
  if (family.role === ROLES.plumber)
    return mode === 'create' ? PlumberUserCreateSchema : PlumberUserUpdateSchema;
  if (family.role === ROLES.end_user) return mode === 'create' ? EndUserCreateSchema : EndUserUpdateSchema;
  return mode === 'create' ? ManagerCreateSchema : ManagerUpdateSchema;
}

/** What a family is given on its form: sites (site managers, plumbers) or zones (end users). */
export function placesOf(family: ManagerFamily): 'site_id' | 'zone_id' | null {
  if (family.role === ROLES.site_manager || family.role === ROLES.plumber) return 'site_id';
  if (family.role === ROLES.end_user) return 'zone_id';
  return null;
}

/** The texts of the places card, by family (`site_managers.sites`, `end_users.zones`…). */
const PLACE_TEXTS = {
  [ROLES.site_manager]: {
    title: 'site_managers.sites',
    hint: 'site_managers.sites_hint',
    empty: 'sites.empty',
  },
  [ROLES.plumber]: { title: 'site_managers.sites', hint: 'plumber_users.sites_hint', empty: 'sites.empty' },
  [ROLES.end_user]: { title: 'end_users.zones', hint: 'end_users.zones_hint', empty: 'end_users.no_zone' },
} as const;

type ManagerFormProps = {
  family: ManagerFamily;
  mode: 'create' | 'edit';
  manager?: User;
  /** Site managers and plumbers: the customer's sites to choose from (end users: its zones), and the ones ticked for a new manager. */
  siteOptions?: readonly SiteOption[];
  defaultSiteIds?: readonly string[];
  cancelTo: string;
  onSubmit: (values: ManagerFormValues) => Promise<unknown>;
};

export function ManagerForm({
  family,
  mode,
  manager,
  siteOptions = [],
  defaultSiteIds = [],
  cancelTo,
  onSubmit,
}: ManagerFormProps) {
  const { t, language } = useLanguage();
  const places = placesOf(family);
  const texts = family.role in PLACE_TEXTS ? PLACE_TEXTS[family.role as keyof typeof PLACE_TEXTS] : null;
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<FormInput, unknown, ManagerFormValues>({
    // Each family validates with its own shared schema; site managers also carry their sites.
    resolver: zodResolver(schemaFor(family, mode)) as unknown as Resolver<
      FormInput,
      unknown,
      ManagerFormValues
    >,
    defaultValues: {
      firstname: manager?.firstname ?? '',
      lastname: manager?.lastname ?? '',
      email: manager?.email ?? '',
      language: manager?.language ?? language,
      address: manager?.address ?? '',
      ...(places ? { [places]: [...(manager?.[places] ?? defaultSiteIds)] } : {}),
    },
  });

  const { submit, failure } = useFormSubmit({ handleSubmit, setError }, FIELDS, async (values) => {
    await onSubmit({ ...values, address: values.address ? values.address : null });
  });

  const placesMessage = places ? errors[places]?.message : undefined;
  const sitesError = placesMessage ? { type: 'validation', message: placesMessage } : undefined;

  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
      <Card title={t('managers.section_identity')}>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <IdentityFields
            own={false}
            firstname={{ register: register('firstname'), error: errors.firstname }}
            lastname={{ register: register('lastname'), error: errors.lastname }}
            email={{ register: register('email'), error: errors.email }}
            language={{ register: register('language'), error: errors.language }}
            address={{ register: register('address'), error: errors.address }}
          />
        </div>
      </Card>
      {places && texts && (
        <Card title={t(texts.title)}>
          <fieldset aria-describedby={sitesError ? `${places}-error` : undefined}>
            <legend className="mb-3 text-sm text-slate-600 dark:text-slate-400">{t(texts.hint)}</legend>
            {siteOptions.length === 0 ? (
              <p className="text-sm text-slate-500">{t(texts.empty)}</p>
            ) : (
              <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2">
                {siteOptions.map((site) => (
                  <li key={site.id}>
                    <label className="flex items-center gap-2 rounded-lg border border-slate-200 px-3 py-2 text-sm dark:border-slate-700">
                      <input
                        type="checkbox"
                        value={site.id}
                        className="h-4 w-4 accent-sky-700 dark:accent-sky-400"
                        {...register(places)}
                      />
                      {site.name}
                    </label>
                  </li>
                ))}
              </ul>
            )}
            <FieldError id={`${places}-error`} error={sitesError} />
          </fieldset>
        </Card>
      )}
      {mode === 'create' && <Alert tone="info">{t('managers.invitation_note')}</Alert>}
      <FormActions>
        <ButtonLink to={cancelTo} variant="secondary">
          {t('common.cancel')}
        </ButtonLink>
        <Button type="submit" loading={isSubmitting}>
          {mode === 'create' ? t('managers.create') : t('common.save')}
        </Button>
      </FormActions>
    </form>
  );
}
