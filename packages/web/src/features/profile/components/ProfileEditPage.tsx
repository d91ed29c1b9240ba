import { zodResolver } from '@hookform/resolvers/zod';
import { ROLES, ALERT_CATEGORIES, ManagerUpdateSchema, type ManagerUpdateInput } from '@flowbox/shared';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { Alert } from '../../../components/Alert.tsx';
import { Button, ButtonLink } from '../../../components/Button.tsx';
import { Card } from '../../../components/Card.tsx';
import { Checkbox } from '../../../components/Checkbox.tsx';
import { FormActions } from '../../../components/FormActions.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { useFormSubmit } from '../../../lib/forms.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { useUser } from '../../auth/index.ts';
import { useUpdateProfile } from '../api/update-profile.ts';
import { IdentityFields } from '../../../components/forms/IdentityFields.tsx';

type ProfileValues = z.output<typeof ManagerUpdateSchema>;
const FIELDS = [
  'firstname',
  'lastname',
  'email',
  'language',
  'address',
  'alert_notification_enabled',
  'alerts_settings',
];

export function ProfileEditPage() {
  const { t } = useLanguage();
  const user = useUser();
  const navigate = useNavigate();
  const toast = useToast();
  const update = useUpdateProfile();
  // spec §6: the email notification setting is for customer and site managers.
  const notifies = user.role !== ROLES.flovea_manager;
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ManagerUpdateInput, unknown, ProfileValues>({
    resolver: zodResolver(ManagerUpdateSchema),
    defaultValues: {
      firstname: user.firstname,
      lastname: user.lastname,
      email: user.email,
      language: user.language,
      address: user.address ?? '',
      ...(notifies
        ? {
            alert_notification_enabled: user.alert_notification_enabled,
            alerts_settings: user.alerts_settings,
          }
        : {}),
    },
  });

  const { submit, failure } = useFormSubmit({ handleSubmit, setError }, FIELDS, async (values) => {
    const input: ManagerUpdateInput = {
      firstname: values.firstname,
      lastname: values.lastname,
      email: values.email,
      language: values.language,
      address: values.address ? values.address : null,
      ...(notifies
        ? {
            alert_notification_enabled: values.alert_notification_enabled,
            alerts_settings: values.alerts_settings,
          }
        : {}),
    };
    await update.mutateAsync(input);
    toast.success(t('toast.profile_updated'));
    await navigate(paths.profile.getHref());
  });

  return (
    <>
      <PageHeader
        title={t('profile.edit')}
        breadcrumbs={[{ label: t('profile.title'), to: paths.profile.getHref() }]}
      />
      <form onSubmit={submit} noValidate className="space-y-6">
        {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
        <Card title={t('managers.section_identity')}>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <IdentityFields
              own
              firstname={{ register: register('firstname'), error: errors.firstname }}
              lastname={{ register: register('lastname'), error: errors.lastname }}
              email={{ register: register('email'), error: errors.email }}
              language={{ register: register('language'), error: errors.language }}
              address={{ register: register('address'), error: errors.address }}
            />
          </div>
        </Card>
        {notifies && (
          <Card title={t('profile.notifications')}>
            <Checkbox
              label={t('fields.alert_notification_enabled')}
              {...register('alert_notification_enabled')}
            />
            <fieldset className="mt-4">
              <legend className="mb-2 text-sm font-medium">{t('profile.email_by_category')}</legend>
              <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
                {ALERT_CATEGORIES.map((category) => (
                  <Checkbox
                    key={category}
                    label={t(`alert.${category}`)}
                    {...register(`alerts_settings.${category}.email`)}
                  />
                ))}
              </div>
            </fieldset>
          </Card>
        )}
        <FormActions>
          <ButtonLink to={paths.profile.getHref()} variant="secondary">
            {t('common.cancel')}
          </ButtonLink>
          <Button type="submit" loading={isSubmitting}>
            {t('common.save')}
          </Button>
        </FormActions>
      </form>
    </>
  );
}
