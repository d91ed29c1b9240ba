import { lazy, Suspense, type ReactNode } from 'react';
import { createBrowserRouter, Navigate, Outlet, useLocation, type RouteObject } from 'react-router';
import { PublicLayout } from '../components/layout/PublicLayout.tsx';
import { LoadingState } from '../components/Spinner.tsx';
import {
  ANY_ROLE,
  EVERY_ROLE,
  CUSTOMER_OR_SITE,
  END_USER,
  FLOVEA,
  FLOVEA_OR_CUSTOMER,
  hasRole,
  MANAGER_OR_END_USER,
  MANAGER_OR_PLUMBER,
  meQueryOptions,
  useUser,
} from '../features/auth/index.ts';
import { RequireAuth, RequireRole, ShellWhenSignedIn } from '../features/auth/widgets.ts';
import { prefetchDashboard } from '../features/dashboard/index.ts';
import { currentLanguage, loadFeatureTexts } from '../lib/i18n/index.ts';
import { warmUpIntl } from '../lib/intl.ts';
import { queryClient } from '../lib/query-client.ts';
import { refreshToken } from '../lib/tokens.ts';
import { paths } from '../paths.ts';
import { RouteErrorPage } from './RouteErrorPage.tsx';

/** A route that moved (issue 18): the old address, query and hash included, lands on the new one. */
function MovedTo({ path }: { path: string }) {
  const { search, hash } = useLocation();
  return <Navigate to={`${path}${search}${hash}`} replace />;
}

/**
 * An alert email's link names its zone, under the old address or the new: an end user opens its zone
 * home, which shows the alert first; without a zone, its alerts (issue 30). Managers and plumbers go
 * on to the screen.
 */
function EndUserToZoneHome() {
  const user = useUser();
  const { search } = useLocation();
  const zoneId = new URLSearchParams(search).get('zone_id');
  if (!hasRole(user, END_USER) || !zoneId) return <Outlet />;
  return <Navigate to={paths.myZone.getHref(encodeURIComponent(zoneId))} replace />;
}

// Each feature's pages are one chunk, fetched when one of its routes first opens, so the sign-in
// pages load neither the shell nor the other features (issue 16: /login within 150 KB gzipped).
const alerts = () => import('../features/alerts/pages.ts');
const auth = () => import('../features/auth/pages.ts');
const login = () => import('../features/auth/login-pages.ts');
const billing = () => import('../features/billing/pages.ts');
const buildings = () => import('../features/buildings/pages.ts');
const customers = () => import('../features/customers/pages.ts');
const endusers = () => import('../features/endusers/pages.ts');
const events = () => import('../features/events/pages.ts');
const firmware = () => import('../features/firmware/pages.ts');
const fleet = () => import('../features/fleet/pages.ts');
const legal = () => import('../features/legal/pages.ts');
const maps = () => import('../features/maps/pages.ts');
const plumbers = () => import('../features/plumbers/pages.ts');
const people = () => import('../features/people/pages.ts');
const managers = () => import('../features/managers/pages.ts');
const outbox = () => import('../features/outbox/pages.ts');
const profile = () => import('../features/profile/pages.ts');
const reports = () => import('../features/reports/pages.ts');
const schedules = () => import('../features/schedules/pages.ts');
const sites = () => import('../features/sites/pages.ts');
const webhooks = () => import('../features/webhooks/pages.ts');
const zones = () => import('../features/zones/pages.ts');
// The pages that show other features' cards, composed in routes/ (docs/architecture.md "Web"): a
// feature imports no other feature's components.
const assistantRoute = () => import('./routes/assistant.tsx');
const buildingRoutes = () => import('./routes/buildings.tsx');
const customerRoutes = () => import('./routes/customers.tsx');
const dashboard = () => import('./routes/dashboard.tsx');
const flowboxRoutes = () => import('./routes/flowboxes.tsx');
const myzoneRoute = () => import('./routes/myzone.tsx');
const siteRoutes = () => import('./routes/sites.tsx');
const zoneRoutes = () => import('./routes/zones.tsx');
const managersOfCustomers = () => Promise.all([managers(), customers()]);
const managersOfSites = () => Promise.all([managers(), sites()]);
const managersOfPeople = () => Promise.all([managers(), people()]);
/** The shell comes with the signed-in screens' texts. */
const appLayout = async () => (await Promise.all([import('./AppLayout.tsx'), loadFeatureTexts()]))[0];

/**
 * A route whose page comes from a lazily loaded feature chunk. The router fetches the chunks of
 * every route a navigation matches at once, keeping the current page on screen meanwhile; on the
 * first load the layout shows with a spinner where the page will be.
 */
function page<Pages>(load: () => Promise<Pages>, render: (pages: Pages) => ReactNode): RouteObject {
  return {
    lazy: async () => ({ element: render(await load()) }),
    hydrateFallbackElement: <LoadingState />,
  };
}

/** The shell around the footer's pages for a signed-in user: the same chunk as the app's routes. */
const LazyAppLayout = lazy(async () => ({ default: (await appLayout()).AppLayout }));

/** spec §2 role limits, route by route. */
const routes: RouteObject[] = [
  {
    // A chunk that fails to load lands here (RouteErrorPage reloads once after a deploy).
    errorElement: <RouteErrorPage />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          { path: paths.login.path, ...page(login, (p) => <p.LoginPage />) },
          { path: paths.register.path, ...page(auth, (p) => <p.RegisterPage />) },
          { path: paths.registerConfirm.path, ...page(auth, (p) => <p.ConfirmRegistrationPage />) },
          { path: paths.resetPasswordRequest.path, ...page(auth, (p) => <p.ResetPasswordRequestPage />) },
          { path: paths.resetPassword.path, ...page(auth, (p) => <p.ResetPasswordPage />) },
          { path: paths.setPassword.path, ...page(auth, (p) => <p.SetPasswordPage />) },
          { path: '*', ...page(legal, (p) => <p.NotFoundPage />) },
        ],
      },
      {
        // The footer's pages: inside the shell when signed in, standing alone when not.
        element: (
          <ShellWhenSignedIn
            shell={
              <Suspense fallback={<LoadingState />}>
                <LazyAppLayout />
              </Suspense>
            }
            alone={<PublicLayout />}
          />
        ),
        children: [
          { path: paths.terms.path, ...page(legal, (p) => <p.TermsPage />) },
          { path: paths.privacy.path, ...page(legal, (p) => <p.PrivacyPage />) },
          { path: paths.status.path, ...page(legal, (p) => <p.StatusPage />) },
          { path: paths.help.path, ...page(legal, (p) => <p.HelpPage />) },
        ],
      },
      {
        element: <RequireAuth />,
        // Who the user is, asked at once: the router runs loaders while it fetches the routes' chunks.
        // The figures' formatters start meanwhile too, once the request is on its way, in a task of
        // their own: inside the start's task they made it a third longer (issue 16, blocking time).
        loader: () => {
          if (refreshToken()) {
            void queryClient.prefetchQuery(meQueryOptions());
            setTimeout(() => warmUpIntl(currentLanguage()), 0);
          }
          return null;
        },
        children: [
          {
            lazy: async () => ({ Component: (await appLayout()).AppLayout }),
            hydrateFallbackElement: <LoadingState />,
            children: [
              {
                errorElement: <RouteErrorPage />,
                // docs/permissions.md: end users and plumbers reach their home, profile and settings here.
                element: <RequireRole roles={EVERY_ROLE} />,
                children: [
                  {
                    path: paths.home.path,
                    ...page(dashboard, (p) => <p.DashboardRoute />),
                    // The dashboard's data is read while its chunk downloads, not after it renders.
                    loader: () => {
                      void prefetchDashboard(queryClient);
                      return null;
                    },
                  },
                  // The page itself sends a manager to the zone's full page (issue 18).
                  { path: paths.myZone.path, ...page(myzoneRoute, (p) => <p.MyZoneRoute />) },
                  // Issue 33: the resident's alerts, now and past (a manager is sent to the alerts screen).
                  { path: paths.myZoneAlerts.path, ...page(alerts, (p) => <p.ResidentAlertsPage />) },
                  { path: paths.profile.path, ...page(profile, (p) => <p.ProfilePage />) },
                  { path: paths.profileEdit.path, ...page(profile, (p) => <p.ProfileEditPage />) },
                  {
                    path: paths.profileUpdatePassword.path,
                    ...page(profile, (p) => <p.UpdatePasswordPage />),
                  },
                  // Issue 18: every role's own settings (language, channels, its alert emails).
                  { path: paths.settings.path, ...page(alerts, (p) => <p.AlertSettingsPage />) },
                  // Former addresses, which old links and alert emails carry, for every role: the new
                  // pages' own guards decide who stays.
                  { path: paths.alertSettings.path, element: <MovedTo path={paths.settings.path} /> },
                  {
                    element: <EndUserToZoneHome />,
                    children: [
                      { path: paths.alerts.path, element: <MovedTo path={paths.notifications.path} /> },
                      // docs/permissions.md: every role reads its alerts here (issue 18; end users, issue 30).
                      { path: paths.notifications.path, ...page(alerts, (p) => <p.AlertsPage />) },
                    ],
                  },
                ],
              },
              {
                errorElement: <RouteErrorPage />,
                // docs/permissions.md: a plumber reads its sites, their devices and alerts (issue 18).
                element: <RequireRole roles={MANAGER_OR_PLUMBER} />,
                children: [
                  { path: paths.sites.path, ...page(sites, (p) => <p.SitesPage />) },
                  { path: paths.site.path, ...page(siteRoutes, (p) => <p.SiteOverviewRoute />) },
                  { path: paths.zone.path, ...page(zoneRoutes, (p) => <p.ZoneOverviewRoute />) },
                  { path: paths.flowbox.path, ...page(flowboxRoutes, (p) => <p.FlowboxDetailRoute />) },
                  { path: paths.waterPoints.path, ...page(zones, (p) => <p.WaterPointsPage />) },
                  { path: paths.building.path, ...page(buildingRoutes, (p) => <p.BuildingOverviewRoute />) },
                ],
              },
              {
                errorElement: <RouteErrorPage />,
                // docs/permissions.md: a zone's scheduled closings, for its managers and for its end
                // users granted schedules.manage (the pages send an end user back to its zone home).
                element: <RequireRole roles={MANAGER_OR_END_USER} />,
                children: [
                  { path: paths.scheduleAdd.path, ...page(schedules, (p) => <p.ScheduleAddPage />) },
                  { path: paths.scheduleEdit.path, ...page(schedules, (p) => <p.ScheduleEditPage />) },
                ],
              },
              {
                errorElement: <RouteErrorPage />,
                element: <RequireRole roles={ANY_ROLE} />,
                children: [
                  { path: paths.registrations.path, ...page(endusers, (p) => <p.RegistrationsPage />) },
                  // End users and plumbers of a customer: its managers with end_users.manage.
                  {
                    path: paths.endUsers.path,
                    ...page(managersOfPeople, ([p, f]) => <p.ManagersListPage family={f.END_USERS} />),
                  },
                  {
                    path: paths.endUserAdd.path,
                    ...page(managersOfPeople, ([p, f]) => <p.ManagerAddPage family={f.END_USERS} />),
                  },
                  {
                    path: paths.endUserEdit.path,
                    ...page(managersOfPeople, ([p, f]) => <p.ManagerEditPage family={f.END_USERS} />),
                  },
                  {
                    path: paths.endUserPermissions.path,
                    ...page(managersOfPeople, ([p, f]) => <p.ManagerPermissionsPage family={f.END_USERS} />),
                  },
                  {
                    path: paths.plumberUsers.path,
                    ...page(managersOfPeople, ([p, f]) => <p.ManagersListPage family={f.PLUMBER_USERS} />),
                  },
                  {
                    path: paths.plumberUserAdd.path,
                    ...page(managersOfPeople, ([p, f]) => <p.ManagerAddPage family={f.PLUMBER_USERS} />),
                  },
                  {
                    path: paths.plumberUserEdit.path,
                    ...page(managersOfPeople, ([p, f]) => <p.ManagerEditPage family={f.PLUMBER_USERS} />),
                  },
                  {
                    path: paths.plumberUserPermissions.path,
                    ...page(managersOfPeople, ([p, f]) => (
                      <p.ManagerPermissionsPage family={f.PLUMBER_USERS} />
                    )),
                  },
                  { path: paths.fleet.path, ...page(fleet, (p) => <p.FleetPage />) },
                  { path: paths.users.path, ...page(people, (p) => <p.PeoplePage />) },
                  { path: paths.siteEvents.path, ...page(events, (p) => <p.SiteEventsPage />) },
                  { path: paths.siteReports.path, ...page(reports, (p) => <p.SiteReportsPage />) },
                  { path: paths.zoneAdd.path, ...page(zones, (p) => <p.ZoneAddPage />) },
                  { path: paths.zoneEdit.path, ...page(zoneRoutes, (p) => <p.ZoneEditRoute />) },
                  { path: paths.zoneEvents.path, ...page(events, (p) => <p.ZoneEventsPage />) },
                  { path: paths.waterPointAdd.path, ...page(zones, (p) => <p.WaterPointAddPage />) },
                  { path: paths.zoneSubscription.path, ...page(billing, (p) => <p.ZoneSubscriptionPage />) },
                  { path: paths.buildingAdd.path, ...page(buildings, (p) => <p.BuildingAddPage />) },
                  { path: paths.buildingEdit.path, ...page(buildings, (p) => <p.BuildingEditPage />) },
                  { path: paths.buildingEvents.path, ...page(events, (p) => <p.BuildingEventsPage />) },
                  { path: paths.plumbers.path, ...page(plumbers, (p) => <p.PlumbersPage />) },
                  { path: paths.plumberAdd.path, ...page(plumbers, (p) => <p.PlumberAddPage />) },
                  { path: paths.plumberEdit.path, ...page(plumbers, (p) => <p.PlumberEditPage />) },
                  // Leaflet comes only with the map pages' chunk (issue 18).
                  { path: paths.plumbersMap.path, ...page(maps, (p) => <p.PlumbersMapPage />) },
                  { path: paths.sitesMap.path, ...page(maps, (p) => <p.SitesMapPage />) },
                  { path: paths.firmware.path, ...page(firmware, (p) => <p.FirmwarePage />) },
                  { path: paths.firmwareRollouts.path, ...page(firmware, (p) => <p.RolloutsPage />) },
                  { path: paths.firmwareRolloutAdd.path, ...page(firmware, (p) => <p.RolloutAddPage />) },
                  { path: paths.firmwareRollout.path, ...page(firmware, (p) => <p.RolloutPage />) },
                ],
              },
              {
                errorElement: <RouteErrorPage />,
                element: <RequireRole roles={FLOVEA} />,
                children: [
                  { path: paths.customers.path, ...page(customers, (p) => <p.CustomersPage />) },
                  { path: paths.customerAdd.path, ...page(customers, (p) => <p.CustomerAddPage />) },
                  {
                    path: paths.floveaManagers.path,
                    ...page(managers, (p) => <p.ManagersListPage family={p.FLOVEA_MANAGERS} />),
                  },
                  {
                    path: paths.floveaManagerAdd.path,
                    ...page(managers, (p) => <p.ManagerAddPage family={p.FLOVEA_MANAGERS} />),
                  },
                  {
                    path: paths.floveaManagerEdit.path,
                    ...page(managers, (p) => <p.ManagerEditPage family={p.FLOVEA_MANAGERS} />),
                  },
                  {
                    path: paths.floveaManagerPermissions.path,
                    ...page(managers, (p) => <p.ManagerPermissionsPage family={p.FLOVEA_MANAGERS} />),
                  },
                  { path: paths.outbox.path, ...page(outbox, (p) => <p.OutboxPage />) },
                  { path: paths.subscriptions.path, ...page(billing, (p) => <p.SubscriptionsPage />) },
                  { path: paths.pricingPlans.path, ...page(billing, (p) => <p.PricingPlansPage />) },
                  { path: paths.pricingPlanAdd.path, ...page(billing, (p) => <p.PricingPlanAddPage />) },
                  { path: paths.pricingPlanEdit.path, ...page(billing, (p) => <p.PricingPlanEditPage />) },
                ],
              },
              {
                errorElement: <RouteErrorPage />,
                element: <RequireRole roles={CUSTOMER_OR_SITE} />,
                children: [
                  { path: paths.assistant.path, ...page(assistantRoute, (p) => <p.AssistantRoute />) },
                ],
              },
              {
                errorElement: <RouteErrorPage />,
                element: <RequireRole roles={FLOVEA_OR_CUSTOMER} />,
                children: [
                  { path: paths.customer.path, ...page(customerRoutes, (p) => <p.CustomerOverviewRoute />) },
                  { path: paths.customerEdit.path, ...page(customers, (p) => <p.CustomerEditPage />) },
                  { path: paths.customerEvents.path, ...page(events, (p) => <p.CustomerEventsPage />) },
                  { path: paths.customerWebhooks.path, ...page(webhooks, (p) => <p.WebhooksPage />) },
                  {
                    path: paths.customerManagers.path,
                    ...page(managersOfCustomers, ([p, f]) => (
                      <p.ManagersListPage family={f.CUSTOMER_MANAGERS} />
                    )),
                  },
                  {
                    path: paths.customerManagerAdd.path,
                    ...page(managersOfCustomers, ([p, f]) => (
                      <p.ManagerAddPage family={f.CUSTOMER_MANAGERS} />
                    )),
                  },
                  {
                    path: paths.customerManagerEdit.path,
                    ...page(managersOfCustomers, ([p, f]) => (
                      <p.ManagerEditPage family={f.CUSTOMER_MANAGERS} />
                    )),
                  },
                  {
                    path: paths.customerManagerPermissions.path,
                    ...page(managersOfCustomers, ([p, f]) => (
                      <p.ManagerPermissionsPage family={f.CUSTOMER_MANAGERS} />
                    )),
                  },
                  { path: paths.customerReports.path, ...page(reports, (p) => <p.CustomerReportsPage />) },
                  { path: paths.siteAdd.path, ...page(sites, (p) => <p.SiteAddPage />) },
                  { path: paths.siteEdit.path, ...page(sites, (p) => <p.SiteEditPage />) },
                  {
                    path: paths.siteManagers.path,
                    ...page(managersOfSites, ([p, f]) => <p.ManagersListPage family={f.SITE_MANAGERS} />),
                  },
                  {
                    path: paths.siteManagerAdd.path,
                    ...page(managersOfSites, ([p, f]) => <p.ManagerAddPage family={f.SITE_MANAGERS} />),
                  },
                  {
                    path: paths.siteManagerEdit.path,
                    ...page(managersOfSites, ([p, f]) => <p.ManagerEditPage family={f.SITE_MANAGERS} />),
                  },
                  {
                    path: paths.siteManagerPermissions.path,
                    ...page(managersOfSites, ([p, f]) => (
                      <p.ManagerPermissionsPage family={f.SITE_MANAGERS} />
                    )),
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
