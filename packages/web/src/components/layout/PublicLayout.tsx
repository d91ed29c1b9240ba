import type { ReactNode } from 'react';
import { Link, Outlet } from 'react-router';
import { chooseLanguage } from '../../lib/i18n/index.ts';
import { paths } from '../../paths.ts';
import { Footer } from './Footer.tsx';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import { Logo } from './Logo.tsx';
import { MAIN_ID, SkipLink } from './SkipLink.tsx';

/** The authentication layout (spec §2): a centred card, language switch, footer. */
export function PublicLayout() {
  return (
    <div className="flex min-h-screen flex-col bg-gradient-to-b from-sky-50 to-slate-50 dark:from-slate-900 dark:to-slate-950">
      <SkipLink />
      <header className="flex items-center justify-between px-4 py-4 sm:px-6">
        <Link
          to={paths.home.getHref()}
          className="rounded-md text-sky-900 focus-visible:outline-2 focus-visible:outline-sky-600 dark:text-sky-100"
        >
          <Logo />
        </Link>
        <LanguageSwitch onChange={(language) => void chooseLanguage(language)} />
      </header>
      <main
        id={MAIN_ID}
        tabIndex={-1}
        className="flex flex-1 items-start justify-center px-4 py-8 sm:items-center"
      >
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}

/** The white card that holds an authentication form or a short public page. */
export function AuthCard({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  return (
    <div
      className={`w-full ${wide ? 'max-w-2xl' : 'max-w-md'} rounded-2xl border border-slate-200 bg-white p-6 shadow-lg sm:p-8 dark:border-slate-800 dark:bg-slate-900`}
    >
      {children}
    </div>
  );
}
