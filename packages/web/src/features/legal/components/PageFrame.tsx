import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AuthCard } from '../../../components/layout/PublicLayout.tsx';
import { paths } from '../../../paths.ts';
import { useOptionalUser } from '../../auth/index.ts';

/**
 * A footer page's frame: within the app shell for a signed-in user (the shell is the way back), a
 * card with a link home for a visitor.
 */
export function PageFrame({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  const { t } = useTranslation();
  const user = useOptionalUser();
  if (user) return <article className={wide ? 'max-w-3xl' : 'max-w-2xl'}>{children}</article>;
  return (
    <AuthCard wide={wide}>
      {children}
      <p className="mt-6 text-sm">
        <Link
          to={paths.home.getHref()}
          className="font-medium text-sky-700 hover:underline dark:text-sky-400"
        >
          {t('common.back_home')}
        </Link>
      </p>
    </AuthCard>
  );
}
