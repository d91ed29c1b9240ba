import { zodResolver } from '@hookform/resolvers/zod';
import { TokenPasswordSchema, type MessageAnswer, type TokenPasswordInput } from '@flowbox/shared';
import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { Alert } from '../../../components/Alert.tsx';
import { Button } from '../../../components/Button.tsx';
import { AuthCard } from '../../../components/layout/PublicLayout.tsx';
import { useDocumentTitle } from '../../../components/PageHeader.tsx';
import { useFormSubmit } from '../../../lib/forms.ts';
import { withPasswordConfirmation } from '../../../lib/password-confirmation.ts';
import { paths } from '../../../paths.ts';
import { NewPasswordFields } from '../../../components/forms/NewPasswordFields.tsx';

const FormSchema = withPasswordConfirmation(TokenPasswordSchema);
type PasswordForm = z.input<typeof FormSchema>;

type TokenPasswordPageProps = {
  title: string;
  subtitle: string;
  submitLabel: string;
  /** Saves the password; answers the message to show here, or null once it has taken the user elsewhere. */
  save: (input: TokenPasswordInput) => Promise<MessageAnswer | null>;
  /** What to do when the link no longer works (expired or used): where to ask for a new one. */
  renewal: ReactNode;
};

/** Choosing a password from an emailed link (?token=): reset or first password of an invitation. */
function TokenPasswordPage({ title, subtitle, submitLabel, save, renewal }: TokenPasswordPageProps) {
  const { t } = useTranslation();
  useDocumentTitle(title);
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [saved, setSaved] = useState<string | null>(null);
  // Issue 30: an expired link said "Invalid token", with no way to ask again.
  const [expired, setExpired] = useState(!token);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<PasswordForm, unknown, z.output<typeof FormSchema>>({
    resolver: zodResolver(FormSchema),
    defaultValues: { token, password: '', password_confirmation: '' },
  });

  const { submit, failure } = useFormSubmit(
    { handleSubmit, setError },
    ['password', 'password_confirmation'],
    async ({ password }) => {
      try {
        const answer = await save({ token, password });
        if (answer) setSaved(answer.message);
      } catch (error) {
        if (error instanceof ApiRequestError && error.code === 'errors.invalid_token') setExpired(true);
        else throw error;
      }
    },
  );

  return (
    <AuthCard>
      <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{subtitle}</p>
      {saved ? (
        <div className="mt-6 space-y-4">
          <Alert tone="success">{saved}</Alert>
          <Link
            to={paths.login.getHref()}
            className="inline-block font-medium text-sky-700 hover:underline dark:text-sky-400"
          >
            {t('login.submit')}
          </Link>
        </div>
      ) : expired ? (
        <div className="mt-6 space-y-3" data-testid="link-expired">
          <Alert title={t('token_password.expired_title')}>{t('token_password.expired')}</Alert>
          <div className="text-sm">{renewal}</div>
        </div>
      ) : (
        <form onSubmit={submit} noValidate className="mt-6 space-y-4">
          {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
          <NewPasswordFields
            label="fields.new_password"
            password={{ register: register('password'), error: errors.password }}
            confirmation={{
              register: register('password_confirmation'),
              error: errors.password_confirmation,
            }}
          />
          <Button type="submit" className="w-full" loading={isSubmitting}>
            {submitLabel}
          </Button>
        </form>
      )}
      {!saved && (
        <p className="mt-6 text-center text-sm">
          <Link
            to={paths.login.getHref()}
            className="font-medium text-sky-700 hover:underline dark:text-sky-400"
          >
            {t('common.back_to_login')}
          </Link>
        </p>
      )}
    </AuthCard>
  );
}

export { TokenPasswordPage };
