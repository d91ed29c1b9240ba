import { zodResolver } from '@hookform/resolvers/zod';
import { RegistrationConfirmSchema } from '@flowbox/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { Alert } from '../../../components/Alert.tsx';
import { Button } from '../../../components/Button.tsx';
import { NewPasswordFields } from '../../../components/forms/NewPasswordFields.tsx';
import { AuthCard } from '../../../components/layout/PublicLayout.tsx';
import { useDocumentTitle } from '../../../components/PageHeader.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { useFormSubmit } from '../../../lib/forms.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { withPasswordConfirmation } from '../../../lib/password-confirmation.ts';
import { paths } from '../../../paths.ts';
import { confirmRegistration } from '../api/register.ts';

const LINK = 'inline-block font-medium text-sky-700 hover:underline dark:text-sky-400';
const FormSchema = withPasswordConfirmation(RegistrationConfirmSchema);
type ConfirmForm = z.input<typeof FormSchema>;

/**
 * The registration's emailed link (?token=): whoever opens it, the holder of the mailbox, chooses
 * the account's password here and confirms the address (docs/permissions.md "Registration"), then
 * reads what comes next. Nothing is sent by opening the page: a mail client that fetches links
 * confirms nothing.
 */
export function ConfirmRegistrationPage() {
  const { t } = useLanguage();
  useDocumentTitle(t('register_confirm.title'));
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [confirmed, setConfirmed] = useState<string | null>(null);
  const [expired, setExpired] = useState(!token);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ConfirmForm, unknown, z.output<typeof FormSchema>>({
    resolver: zodResolver(FormSchema),
    defaultValues: { token, password: '', password_confirmation: '' },
  });

  const { submit, failure } = useFormSubmit(
    { handleSubmit, setError },
    ['password', 'password_confirmation'],
    async ({ password }) => {
      try {
        setConfirmed((await confirmRegistration(token, password)).message);
      } catch (error) {
        // The server's "invalid token" says nothing a resident can act on: what happened and what to do.
        if (error instanceof ApiRequestError && error.code === 'errors.invalid_token') setExpired(true);
        else throw error;
      }
    },
  );

  return (
    <AuthCard>
      <h1 className="text-2xl font-bold tracking-tight">{t('register_confirm.title')}</h1>
      {confirmed ? (
        <div className="mt-4">
          <Alert tone="success">{confirmed}</Alert>
        </div>
      ) : expired ? (
        <div className="mt-4">
          <Alert title={t('dialog.error')}>{t('register_confirm.invalid_link')}</Alert>
        </div>
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t('register_confirm.subtitle')}</p>
          <form onSubmit={submit} noValidate className="mt-6 space-y-4">
            {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
            <NewPasswordFields
              label="fields.password"
              password={{ register: register('password'), error: errors.password }}
              confirmation={{
                register: register('password_confirmation'),
                error: errors.password_confirmation,
              }}
            />
            <Button type="submit" className="w-full" loading={isSubmitting}>
              {t('register_confirm.submit')}
            </Button>
          </form>
        </>
      )}
      <p className="mt-6 flex flex-wrap gap-x-6 gap-y-2">
        {expired && (
          <Link to={paths.register.getHref()} className={LINK}>
            {t('register_confirm.register_again')}
          </Link>
        )}
        <Link to={paths.login.getHref()} className={LINK}>
          {t('common.back_to_login')}
        </Link>
      </p>
    </AuthCard>
  );
}
