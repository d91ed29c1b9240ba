import { zodResolver } from '@hookform/resolvers/zod';
import { RequestResetPasswordSchema } from '@flowbox/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { z } from 'zod';
import { Alert } from '../../../components/Alert.tsx';
import { Button } from '../../../components/Button.tsx';
import { AuthCard } from '../../../components/layout/PublicLayout.tsx';
import { useDocumentTitle } from '../../../components/PageHeader.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { useFormSubmit } from '../../../lib/forms.ts';
import { paths } from '../../../paths.ts';
import { useRequestResetPassword } from '../api/request-reset-password.ts';

type RequestForm = z.input<typeof RequestResetPasswordSchema>;

export function ResetPasswordRequestPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('reset_request.title'));
  const mutation = useRequestResetPassword();
  const [sent, setSent] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<RequestForm, unknown, z.output<typeof RequestResetPasswordSchema>>({
    resolver: zodResolver(RequestResetPasswordSchema),
    defaultValues: { email: '' },
  });

  const { submit, failure } = useFormSubmit({ handleSubmit, setError }, ['email'], async (values) => {
    setSent((await mutation.mutateAsync(values)).message);
  });

  return (
    <AuthCard>
      <h1 className="text-2xl font-bold tracking-tight">{t('reset_request.title')}</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t('reset_request.subtitle')}</p>
      {sent ? (
        <div className="mt-6">
          <Alert tone="success">{sent}</Alert>
        </div>
      ) : (
        <form onSubmit={submit} noValidate className="mt-6 space-y-4">
          {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
          <TextField
            label={t('fields.email')}
            type="email"
            autoComplete="email"
            maxLength={254}
            required
            error={errors.email}
            {...register('email')}
          />
          <Button type="submit" className="w-full" loading={mutation.isPending}>
            {t('reset_request.submit')}
          </Button>
        </form>
      )}
      <p className="mt-6 text-center text-sm">
        <Link
          to={paths.login.getHref()}
          className="font-medium text-sky-700 hover:underline dark:text-sky-400"
        >
          {t('common.back_to_login')}
        </Link>
      </p>
    </AuthCard>
  );
}
