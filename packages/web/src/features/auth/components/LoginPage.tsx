import type { LoginInput } from '@flowbox/shared';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Alert } from '../../../components/Alert.tsx';
import { Button } from '../../../components/Button.tsx';
import { AuthCard } from '../../../components/layout/PublicLayout.tsx';
import { useDocumentTitle } from '../../../components/PageHeader.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { applyServerErrors } from '../../../lib/forms.ts';
import { paths, safeRedirect } from '../../../paths.ts';
import { useLogin } from '../api/login.ts';
import type { LoginErrors } from '../login-check.ts';

const FIELDS = ['email', 'password'] as const;

/**
 * The first screen, kept light (issue 16, /login within 150 KB gzipped): a plain form rather than
 * react-hook-form, and the shared schema's check (zod) loaded at the first submit, not with the page.
 */
export function LoginPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('login.title'));
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const loginMutation = useLogin();
  const [errors, setErrors] = useState<LoginErrors>({});
  const [failure, setFailure] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const { checkLogin } = await import('../login-check.ts');
    const checked = checkLogin({ email: data.get('email'), password: data.get('password') });
    setErrors(checked.errors);
    setFailure(null);
    if (!checked.values) {
      const invalid = FIELDS.find((field) => checked.errors[field]);
      if (invalid) form.querySelector<HTMLInputElement>(`[name="${invalid}"]`)?.focus();
      return;
    }
    try {
      await loginMutation.mutateAsync(checked.values);
      await navigate(safeRedirect(params.get('redirect')), { replace: true });
    } catch (error) {
      const placed: LoginErrors = {};
      setFailure(
        applyServerErrors<LoginInput>(
          error,
          (field, fieldError) => {
            if (field === 'email' || field === 'password') placed[field] = { type: 'server', ...fieldError };
          },
          FIELDS,
        ),
      );
      setErrors(placed);
    }
  }

  return (
    <AuthCard>
      <h1 className="text-2xl font-bold tracking-tight">{t('login.title')}</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t('login.subtitle')}</p>
      <form onSubmit={(event) => void submit(event)} noValidate className="mt-6 space-y-4">
        {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
        <TextField
          label={t('fields.email')}
          type="email"
          autoComplete="username"
          maxLength={254}
          required
          name="email"
          error={errors.email}
        />
        <TextField
          label={t('fields.password')}
          type="password"
          autoComplete="current-password"
          maxLength={200}
          required
          name="password"
          error={errors.password}
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
