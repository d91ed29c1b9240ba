import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useToast } from '../../../components/Toasts.tsx';
import { paths } from '../../../paths.ts';
import { useSetPassword } from '../api/set-password.ts';
import { TokenPasswordPage } from './TokenPasswordPage.tsx';

/** An invitation's link: the password saved, the new user is signed in and lands on the dashboard. */
export function SetPasswordPage() {
  const { t } = useTranslation();
  const mutation = useSetPassword();
  const navigate = useNavigate();
  const toast = useToast();
  return (
    <TokenPasswordPage
      title={t('set_password.title')}
      subtitle={t('set_password.subtitle')}
      submitLabel={t('set_password.submit')}
      renewal={t('set_password.ask_again')}
      save={async (input) => {
        const { message } = await mutation.mutateAsync(input);
        toast.success(message);
        await navigate(paths.home.getHref(), { replace: true });
        return null;
      }}
    />
  );
}
