import type { LoginInput } from '@flowbox/shared';
import { useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Alert } from '../../../components/Alert.tsx';
import { Button } from '../../../components/Button.tsx';
import { AuthCard } from '../../../components/layout/PublicLayout.tsx';
import { useDocumentTitle } from '../../../components/PageHeader.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { useFormSubmit } from '../../../lib/forms.ts';
import { paths, safeRedirect } from '../../../paths.ts';
import { useLogin } from '../api/login.ts';

/**
 * The shared schema checks the form, but zod loads with the first check rather than with the page:
 * it would be a sixth of the first screen's download (issue 16, /login within 150 KB gzipped).
 */
const checkLogin: Resolver<LoginInput> = async (values, context, options) =>
  (await import('../login-resolver.ts')).loginResolver(values, context, options);

export function LoginPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('login.title'));
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const loginMutation = useLogin();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<LoginInput>({ resolver: checkLogin, defaultValues: { email: '', password: '' } });

  const { submit, failure } = useFormSubmit(
    { handleSubmit, setError },
    ['email', 'password'],
    async (values) => {
      await loginMutation.mutateAsync(values);
      await navigate(safeRedirect(params.get('redirect')), { replace: true });
    },
  );

  return (
    <AuthCard>
      <h1 className="text-2xl font-bold tracking-tight">{t('login.title')}</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t('login.subtitle')}</p>
      <form onSubmit={submit} noValidate className="mt-6 space-y-4">
        {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
        <TextField
          label={t('fields.email')}
          type="email"
          autoComplete="username"
          maxLength={254}
          required
          error={errors.email}
          {...register('email')}
        />
        <TextField
          label={t('fields.password')}
          type="password"
          autoComplete="current-password"
          maxLength={200}
          required
          error={errors.password}
          {...register('password')}
        />
        <div className="text-right text-sm">
          <Link
            to={paths.resetPasswordRequest.getHref()}
            className="text-sky-700 hover:underline dark:text-sky-400"
          >
            {t('login.forgot')}
          </Link>
        </div>
        <Button type="submit" className="w-full" loading={loginMutation.isPending}>
          {t('login.submit')}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-slate-600 dark:text-slate-400">
        {t('login.no_account')}{' '}
        <Link
          to={paths.register.getHref()}
          className="font-medium text-sky-700 hover:underline dark:text-sky-400"
        >
          {t('login.register')}
        </Link>
      </p>
    </AuthCard>
  );
}
