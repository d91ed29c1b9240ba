import { zodResolver } from '@hookform/resolvers/zod';
import { UpdatePasswordSchema } from '@flowbox/shared';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { Alert } from '../../../components/Alert.tsx';
import { Button, ButtonLink } from '../../../components/Button.tsx';
import { Card } from '../../../components/Card.tsx';
import { FormActions } from '../../../components/FormActions.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { useFormSubmit } from '../../../lib/forms.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { withPasswordConfirmation } from '../../../lib/password-confirmation.ts';
import { paths } from '../../../paths.ts';
import { useUpdatePassword } from '../api/update-password.ts';
import { NewPasswordFields } from '../../../components/forms/NewPasswordFields.tsx';

const FormSchema = withPasswordConfirmation(UpdatePasswordSchema);

export function UpdatePasswordPage() {
  const { t } = useLanguage();
  const navigate = useNavigate();
  const toast = useToast();
  const mutation = useUpdatePassword();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<z.input<typeof FormSchema>, unknown, z.output<typeof FormSchema>>({
    resolver: zodResolver(FormSchema),
    defaultValues: { current_password: '', password: '', password_confirmation: '' },
  });

  const { submit, failure } = useFormSubmit(
    { handleSubmit, setError },
    ['current_password', 'password', 'password_confirmation'],
    async ({ current_password, password }) => {
      const answer = await mutation.mutateAsync({ current_password, password });
      toast.success(answer.message);
      await navigate(paths.profile.getHref());
    },
  );

  return (
    <>
      <PageHeader
        title={t('profile.update_password')}
        breadcrumbs={[{ label: t('profile.title'), to: paths.profile.getHref() }]}
      />
      <form onSubmit={submit} noValidate className="max-w-lg space-y-6">
        {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
        <Card>
          <div className="space-y-4">
            <TextField
              label={t('fields.current_password')}
              type="password"
              autoComplete="current-password"
              maxLength={200}
              required
              error={errors.current_password}
              {...register('current_password')}
            />
            <NewPasswordFields
              label="fields.new_password"
              password={{ register: register('password'), error: errors.password }}
              confirmation={{
                register: register('password_confirmation'),
                error: errors.password_confirmation,
              }}
            />
          </div>
        </Card>
        <FormActions>
          <ButtonLink to={paths.profile.getHref()} variant="secondary">
            {t('common.cancel')}
          </ButtonLink>
          <Button type="submit" loading={mutation.isPending}>
            {t('common.save')}
          </Button>
        </FormActions>
      </form>
    </>
  );
}
