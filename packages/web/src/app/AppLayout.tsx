import { ROLES, type Language, type User } from '@flowbox/shared';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { Link, NavLink, Outlet } from 'react-router';
import { Footer } from '../components/layout/Footer.tsx';
import { LanguageSwitch } from '../components/layout/LanguageSwitch.tsx';
import { Logo } from '../components/layout/Logo.tsx';
import { MAIN_ID, SkipLink } from '../components/layout/SkipLink.tsx';
import { useToast } from '../components/Toasts.tsx';
import { accountLanguageAfterSaves, useUpdateProfile } from '../features/profile/index.ts';
import { ANY_ROLE, canDo, ME_QUERY_KEY, useLogout, useUser } from '../features/auth/index.ts';
import { AlertCountBadge } from '../features/alerts/widgets.ts';
import { LiveIndicator } from '../features/flowboxes/widgets.ts';
import {
  changeLanguage,
  chooseLanguage,
  chosenLanguage,
  forgetChosenLanguage,
  useLanguage,
} from '../lib/i18n/index.ts';
import { LiveProvider } from '../lib/live.ts';
import { paths } from '../paths.ts';

/** The features' live listeners load after the first paint; the channel waits for them. */
const LiveSyncs = lazy(() => import('./LiveSyncs.tsx'));

type NavItem = { to: string; label: string; end?: boolean };

function useNavItems(): NavItem[] {
  const { t } = useLanguage();
  const user = useUser();
  // docs/permissions.md: a plumber reads its sites and their alerts (issue 18).
  if (user.role === ROLES.plumber)
    return [
      { to: paths.home.getHref(), label: t('nav.dashboard'), end: true },
      ...(user.customer_id ? [{ to: paths.sites.getHref(user.customer_id), label: t('nav.sites') }] : []),
      { to: paths.alerts.getHref(), label: t('nav.alerts'), end: true },
      { to: paths.settings.getHref(), label: t('nav.alert_settings') },
      { to: paths.profile.getHref(), label: t('nav.profile') },
    ];
  // docs/permissions.md: an end user has its home, its zones' alerts, its settings and its profile.
  if (user.role === ROLES.end_user)
    return [
      { to: paths.home.getHref(), label: t('nav.dashboard'), end: true },
      { to: paths.alerts.getHref(), label: t('nav.alerts'), end: true },
      { to: paths.settings.getHref(), label: t('nav.alert_settings') },
      { to: paths.profile.getHref(), label: t('nav.profile') },
    ];
  const items: NavItem[] = [
    { to: paths.home.getHref(), label: t('nav.dashboard'), end: true },
    { to: paths.alerts.getHref(), label: t('nav.alerts'), end: true },
    { to: paths.fleet.getHref(), label: t('nav.fleet'), end: true },
    { to: paths.alertSettings.getHref(), label: t('nav.alert_settings') },
  ];
  if (user.role === ROLES.flovea_manager) {
    items.push({ to: paths.customers.getHref(), label: t('nav.customers') });
    items.push({ to: paths.floveaManagers.getHref(), label: t('nav.flovea_managers') });
    items.push({ to: paths.subscriptions.getHref(), label: t('nav.subscriptions') });
    items.push({ to: paths.outbox.getHref(), label: t('nav.outbox') });
  } else if (user.customer_id) {
    if (user.role === ROLES.customer_manager)
      items.push({ to: paths.customer.getHref(user.customer_id), label: t('nav.my_customer'), end: true });
    items.push({ to: paths.sites.getHref(user.customer_id), label: t('nav.sites') });
    items.push({ to: paths.assistant.getHref(), label: t('nav.assistant') });
  }
  // docs/maps.md: every manager reads the plumber directory and the map of its sites.
  if (ANY_ROLE.includes(user.role)) {
    items.push({ to: paths.plumbers.getHref(), label: t('nav.plumbers') });
    items.push({ to: paths.sitesMap.getHref(), label: t('nav.sites_map') });
  }
  // Issue 18: everyone with access to the manager's scope, across roles.
  items.push({ to: paths.users.getHref(), label: t('nav.users') });
  if (user.customer_id && canDo(user, ANY_ROLE, 'end_users.manage')) {
    items.push({ to: paths.endUsers.getHref(user.customer_id), label: t('nav.people') });
    items.push({ to: paths.registrations.getHref(user.customer_id), label: t('nav.registrations') });
  }
  // docs/firmware.md: every role reads and rolls out within its scope, with the permission.
  if (canDo(user, ANY_ROLE, 'firmware.update'))
    items.push({ to: paths.firmware.getHref(), label: t('nav.firmware') });
  items.push({ to: paths.profile.getHref(), label: t('nav.profile') });
  return items;
}

const NAV_LINK =
  'block rounded-lg px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-sky-600 ';
const NAV_ACTIVE = 'bg-sky-100 text-sky-900 dark:bg-sky-900/50 dark:text-sky-100';
const NAV_IDLE = 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800';

function Navigation({
  id,
  className,
  onNavigate,
}: {
  id?: string;
  className: string;
  onNavigate?: () => void;
}) {
  const { t } = useLanguage();
  return (
    <nav id={id} aria-label={t('nav.main')} className={className}>
      <ul className="space-y-1">
        {useNavItems().map((item) => (
          <li key={item.to}>
            <NavLink
              to={item.to}
              end={item.end}
              onClick={onNavigate}
              className={({ isActive }) => NAV_LINK + (isActive ? NAV_ACTIVE : NAV_IDLE)}
            >
              {item.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The signed-in shell: header (menu on phones, language, user, logout), sidebar, content, footer. */
export function AppLayout() {
  const { t } = useLanguage();
  const user = useUser();
  const toast = useToast();
  const logout = useLogout();
  const updateProfile = useUpdateProfile();
  const [menuOpen, setMenuOpen] = useState(false);

  // Issue 30: the screens show the account's language, so a choice is saved to the account (emails
  // follow it too). Until the account holds it, it waits as a choice (chooseLanguage), so a reload
  // meanwhile keeps it; a refusal puts the saved one back on screen.
  const { mutate: saveProfile } = updateProfile;
  const queryClient = useQueryClient();
  const savedLanguage = user.language;
  const saveLanguage = useCallback(
    (language: Language) => {
      // Against what the account holds once the saves on their way answered: a switch back before
      // the last save answered is a save of its own. The account as the cache holds it now, not as
      // this screen last drew it: a click just after a save answered, before the screen drew its
      // answer, was compared with the language before it and saved nothing.
      const account = queryClient.getQueryData<User>(ME_QUERY_KEY)?.language ?? savedLanguage;
      if (language === accountLanguageAfterSaves(account)) {
        forgetChosenLanguage();
        return;
      }
      saveProfile(
        { language },
        {
          onSuccess: () => forgetChosenLanguage(),
          onError: (error) => {
            forgetChosenLanguage();
            toast.error(error.message);
            void changeLanguage(savedLanguage);
          },
        },
      );
    },
    [saveProfile, savedLanguage, toast, queryClient],
  );
  // A language chosen on the sign-in page, or not yet saved before a reload, is on screen already
  // (showUserLanguage): it becomes the account's.
  useEffect(() => {
    const chosen = chosenLanguage();
    if (chosen) saveLanguage(chosen);
  }, [saveLanguage]);

  async function switchLanguage(language: Language) {
    await chooseLanguage(language);
    saveLanguage(language);
  }

  return (
    <LiveProvider waitForListeners>
      <Suspense fallback={null}>
        <LiveSyncs />
      </Suspense>
      <div className="flex min-h-screen flex-col">
        <SkipLink />
        <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur dark:border-slate-800 dark:bg-slate-900/95">
          <div className="flex h-16 items-center gap-3 px-4 sm:px-6">
            <button
              type="button"
              className="rounded-lg p-2 text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-sky-600 lg:hidden dark:text-slate-200 dark:hover:bg-slate-800"
              aria-expanded={menuOpen}
              aria-controls="mobile-navigation"
              onClick={() => setMenuOpen((open) => !open)}
            >
              <span className="sr-only">{t('nav.menu')}</span>
              <svg
                viewBox="0 0 24 24"
                className="h-6 w-6"
                aria-hidden="true"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
              >
                {menuOpen ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 6h16M4 12h16M4 18h16" />}
              </svg>
            </button>
            <Link
              to={paths.home.getHref()}
              className="rounded-md text-sky-900 focus-visible:outline-2 focus-visible:outline-sky-600 dark:text-sky-100"
            >
              <Logo compact className="text-base sm:text-lg" />
            </Link>
            <div className="ml-auto flex items-center gap-2 sm:gap-3">
              <LiveIndicator />
              <AlertCountBadge />
              <LanguageSwitch onChange={(language) => void switchLanguage(language)} />
              <Link
                to={paths.profile.getHref()}
                className="hidden max-w-48 truncate rounded-md text-sm text-slate-700 hover:underline focus-visible:outline-2 focus-visible:outline-sky-600 md:block dark:text-slate-300"
                data-testid="current-user"
              >
                {user.firstname} {user.lastname}
              </Link>
              <button
                type="button"
                onClick={() => logout.mutate()}
                disabled={logout.isPending}
                className="rounded-lg border border-slate-300 p-1.5 text-sm font-medium whitespace-nowrap text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-sky-600 sm:px-3 dark:border-slate-600 dark:text-slate-200 dark:hover:bg-slate-800"
              >
                {/* An icon on phones, where "Se déconnecter" would push the header past the screen. */}
                <svg
                  viewBox="0 0 24 24"
                  className="h-5 w-5 sm:hidden"
                  aria-hidden="true"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2"
                >
                  <path d="M15 4h3a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-3M10 17l5-5-5-5M15 12H3" />
                </svg>
                <span className="sr-only sm:not-sr-only">{t('nav.logout')}</span>
              </button>
            </div>
          </div>
          {menuOpen && (
            <Navigation
              id="mobile-navigation"
              onNavigate={() => setMenuOpen(false)}
              className="border-t border-slate-200 px-4 py-3 lg:hidden dark:border-slate-800"
            />
          )}
        </header>
        <div className="flex flex-1">
          <aside className="hidden w-60 shrink-0 border-r border-slate-200 bg-white px-3 py-6 lg:block dark:border-slate-800 dark:bg-slate-900">
            <Navigation className="sticky top-22" />
          </aside>
          <div className="flex min-w-0 flex-1 flex-col">
            <main
              id={MAIN_ID}
              tabIndex={-1}
              className="mx-auto w-full max-w-6xl flex-1 px-4 py-4 focus:outline-none sm:px-6 sm:py-6 lg:px-8 lg:py-8"
            >
              <Outlet />
            </main>
            <Footer />
          </div>
        </div>
      </div>
    </LiveProvider>
  );
}
