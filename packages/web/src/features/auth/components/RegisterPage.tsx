import { zodResolver } from '@hookform/resolvers/zod';
import { LANGUAGES, RegisterSchema } from '@flowbox/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { Alert } from '../../../components/Alert.tsx';
import { Button } from '../../../components/Button.tsx';
import { Checkbox } from '../../../components/Checkbox.tsx';
import { AuthCard } from '../../../components/layout/PublicLayout.tsx';
import { useDocumentTitle } from '../../../components/PageHeader.tsx';
import { Select } from '../../../components/Select.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { useFormSubmit } from '../../../lib/forms.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { useRegister } from '../api/register.ts';
import { IdentityFields } from '../../../components/forms/IdentityFields.tsx';

// No password here: it is chosen on the emailed link's page, by whoever holds the mailbox.
const RegisterFormSchema = RegisterSchema;
type RegisterForm = z.input<typeof RegisterFormSchema>;
const FIELDS = [
  'firstname',
  'lastname',
  'email',
  'language',
  'claim_code',
  'flowbox_serial',
  'terms_accepted',
];

export function RegisterPage() {
  const { t, language } = useLanguage();
  useDocumentTitle(t('register.title'));
  const toast = useToast();
  const registerMutation = useRegister();
  const [done, setDone] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<RegisterForm, unknown, z.output<typeof RegisterFormSchema>>({
    resolver: zodResolver(RegisterFormSchema),
    defaultValues: {
      firstname: '',
      lastname: '',
      email: '',
      claim_code: '',
      flowbox_serial: '',
      language,
    },
  });

  const { submit, failure } = useFormSubmit({ handleSubmit, setError }, FIELDS, async (values) => {
    const answer = await registerMutation.mutateAsync(values);
    toast.success(t('toast.user_registered'));
    setDone(answer.message);
  });

  if (done) {
    return (
      <AuthCard>
        <h1 className="text-2xl font-bold tracking-tight">{t('register.done_title')}</h1>
        <div className="mt-4">
          <Alert tone="success">{done}</Alert>
        </div>
        <Link
          to={paths.login.getHref()}
          className="mt-6 inline-block font-medium text-sky-700 hover:underline dark:text-sky-400"
        >
          {t('common.back_to_login')}
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard wide>
      <h1 className="text-2xl font-bold tracking-tight">{t('register.title')}</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t('register.subtitle')}</p>
      <form onSubmit={submit} noValidate className="mt-6 grid grid-cols-1 gap-4 sm:grid-cols-2">
        {failure && (
          <div className="sm:col-span-2">
            <Alert title={t('dialog.error')}>{failure}</Alert>
          </div>
        )}
        <IdentityFields
          own
          firstname={{ register: register('firstname'), error: errors.firstname }}
          lastname={{ register: register('lastname'), error: errors.lastname }}
          email={{ register: register('email'), error: errors.email }}
        />
        <TextField
          label={t('fields.claim_code')}
          maxLength={40}
          required
          autoComplete="off"
          autoCapitalize="characters"
          hint={t('register.claim_code_hint')}
          error={errors.claim_code}
          {...register('claim_code')}
        />
        <TextField
          label={t('fields.flowbox_serial')}
          maxLength={64}
          hint={t('register.serial_optional_hint')}
          error={errors.flowbox_serial}
          {...register('flowbox_serial')}
        />
        <Select
          label={t('fields.language')}
          options={LANGUAGES.map((code) => ({ value: code, label: t(`language.${code}`) }))}
          error={errors.language}
          {...register('language')}
        />
        <Checkbox
          className="sm:col-span-2"
          label={
            <>
              {t('register.accept_terms')}{' '}
              <Link
                to={paths.terms.getHref()}
                target="_blank"
                className="text-sky-700 underline dark:text-sky-400"
              >
                {t('footer.terms')}
              </Link>
            </>
          }
          error={errors.terms_accepted}
          {...register('terms_accepted')}
        />
        <div className="sm:col-span-2">
          <Button type="submit" className="w-full" loading={registerMutation.isPending}>
            {t('register.submit')}
          </Button>
        </div>
      </form>
      <p className="mt-6 text-center text-sm text-slate-600 dark:text-slate-400">
        {t('register.have_account')}{' '}
        <Link
          to={paths.login.getHref()}
          className="font-medium text-sky-700 hover:underline dark:text-sky-400"
        >
          {t('login.submit')}
        </Link>
      </p>
    </AuthCard>
  );
}
