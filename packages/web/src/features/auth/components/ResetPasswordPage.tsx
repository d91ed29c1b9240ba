import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../../paths.ts';
import { useResetPassword } from '../api/reset-password.ts';
import { TokenPasswordPage } from './TokenPasswordPage.tsx';

export function ResetPasswordPage() {
  const { t } = useTranslation();
  const mutation = useResetPassword();
  return (
    <TokenPasswordPage
      title={t('reset_password.title')}
      subtitle={t('reset_password.subtitle')}
      submitLabel={t('reset_password.submit')}
      save={mutation.mutateAsync}
      renewal={
        <Link
          to={paths.resetPasswordRequest.getHref()}
          className="font-medium text-sky-700 hover:underline dark:text-sky-400"
        >
          {t('reset_password.ask_again')}
        </Link>
      }
    />
  );
}
