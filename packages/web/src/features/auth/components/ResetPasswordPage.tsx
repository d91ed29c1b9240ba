import { useTranslation } from 'react-i18next';
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
    />
  );
}
