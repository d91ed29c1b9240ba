import { useTranslation } from 'react-i18next';
import { useSetPassword } from '../api/set-password.ts';
import { TokenPasswordPage } from './TokenPasswordPage.tsx';

export function SetPasswordPage() {
  const { t } = useTranslation();
  const mutation = useSetPassword();
  return (
    <TokenPasswordPage
      title={t('set_password.title')}
      subtitle={t('set_password.subtitle')}
      submitLabel={t('set_password.submit')}
      save={mutation.mutateAsync}
    />
  );
}
