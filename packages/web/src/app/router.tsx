import { createBrowserRouter, type RouteObject } from 'react-router';
import { PublicLayout } from '../components/layout/PublicLayout.tsx';
import {
  ANY_ROLE,
  CUSTOMER_OR_SITE,
  FLOVEA,
  FLOVEA_OR_CUSTOMER,
  RequireAuth,
  RequireRole,
  ShellWhenSignedIn,
} from '../features/auth/index.ts';
import {
  LoginPage,
  RegisterPage,
  ResetPasswordPage,
  ResetPasswordRequestPage,
  SetPasswordPage,
} from '../features/auth/pages.ts';
import {
  BuildingAddPage,
  BuildingEditPage,
  BuildingEventsPage,
  BuildingOverviewPage,
} from '../features/buildings/pages.ts';
import {
  CustomerAddPage,
  CustomerEditPage,
  CustomerEventsPage,
  CustomerOverviewPage,
  CustomersPage,
  CUSTOMER_MANAGERS,
} from '../features/customers/pages.ts';
import { DashboardPage } from '../features/dashboard/pages.ts';
import {
  FLOVEA_MANAGERS,
  ManagerAddPage,
  ManagerEditPage,
  ManagerPermissionsPage,
  ManagersListPage,
} from '../features/managers/pages.ts';
import { HelpPage, NotFoundPage, PrivacyPage, StatusPage, TermsPage } from '../features/legal/pages.ts';
import { OutboxPage } from '../features/outbox/pages.ts';
import { AlertSettingsPage, AlertsPage } from '../features/alerts/pages.ts';
import { ProfileEditPage, ProfilePage, UpdatePasswordPage } from '../features/profile/pages.ts';
import {
  SiteAddPage,
  SiteEditPage,
  SiteEventsPage,
  SiteOverviewPage,
  SitesPage,
  SITE_MANAGERS,
} from '../features/sites/pages.ts';
import {
  WaterPointAddPage,
  WaterPointsPage,
  ZoneAddPage,
  ZoneEditPage,
  ZoneEventsPage,
  ZoneOverviewPage,
} from '../features/zones/pages.ts';
import { paths } from '../paths.ts';
import { AssistantPage } from '../features/assistant/pages.ts';
import { FlowboxDetailPage } from '../features/flowboxes/pages.ts';
import { FirmwarePage, RolloutAddPage, RolloutPage, RolloutsPage } from '../features/firmware/pages.ts';
import { ScheduleAddPage, ScheduleEditPage } from '../features/schedules/pages.ts';
import {
  PricingPlanAddPage,
  PricingPlanEditPage,
  PricingPlansPage,
  SubscriptionsPage,
  ZoneSubscriptionPage,
} from '../features/billing/pages.ts';
import { AppLayout } from './AppLayout.tsx';
import { RouteErrorPage } from './RouteErrorPage.tsx';

/** spec §2 role limits, route by route. */
const routes: RouteObject[] = [
  {
    element: <PublicLayout />,
    children: [
      { path: paths.login.path, element: <LoginPage /> },
      { path: paths.register.path, element: <RegisterPage /> },
      { path: paths.resetPasswordRequest.path, element: <ResetPasswordRequestPage /> },
      { path: paths.resetPassword.path, element: <ResetPasswordPage /> },
      { path: paths.setPassword.path, element: <SetPasswordPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  {
    // The footer's pages: inside the shell when signed in, standing alone when not.
    element: <ShellWhenSignedIn shell={<AppLayout />} alone={<PublicLayout />} />,
    children: [
      { path: paths.terms.path, element: <TermsPage /> },
      { path: paths.privacy.path, element: <PrivacyPage /> },
      { path: paths.status.path, element: <StatusPage /> },
      { path: paths.help.path, element: <HelpPage /> },
    ],
  },
  {
    element: <RequireAuth />,
    children: [
      {
        element: <AppLayout />,
        children: [
          {
            errorElement: <RouteErrorPage />,
            element: <RequireRole roles={ANY_ROLE} />,
            children: [
              { path: paths.home.path, element: <DashboardPage /> },
              { path: paths.alerts.path, element: <AlertsPage /> },
              { path: paths.alertSettings.path, element: <AlertSettingsPage /> },
              { path: paths.profile.path, element: <ProfilePage /> },
              { path: paths.profileEdit.path, element: <ProfileEditPage /> },
              { path: paths.profileUpdatePassword.path, element: <UpdatePasswordPage /> },
              { path: paths.sites.path, element: <SitesPage /> },
              { path: paths.site.path, element: <SiteOverviewPage /> },
              { path: paths.siteEvents.path, element: <SiteEventsPage /> },
              { path: paths.zoneAdd.path, element: <ZoneAddPage /> },
              { path: paths.zone.path, element: <ZoneOverviewPage /> },
              { path: paths.zoneEdit.path, element: <ZoneEditPage /> },
              { path: paths.zoneEvents.path, element: <ZoneEventsPage /> },
              { path: paths.flowbox.path, element: <FlowboxDetailPage /> },
              { path: paths.waterPoints.path, element: <WaterPointsPage /> },
              { path: paths.waterPointAdd.path, element: <WaterPointAddPage /> },
              { path: paths.scheduleAdd.path, element: <ScheduleAddPage /> },
              { path: paths.scheduleEdit.path, element: <ScheduleEditPage /> },
              { path: paths.zoneSubscription.path, element: <ZoneSubscriptionPage /> },
              { path: paths.buildingAdd.path, element: <BuildingAddPage /> },
              { path: paths.building.path, element: <BuildingOverviewPage /> },
              { path: paths.buildingEdit.path, element: <BuildingEditPage /> },
              { path: paths.buildingEvents.path, element: <BuildingEventsPage /> },
              { path: paths.firmware.path, element: <FirmwarePage /> },
              { path: paths.firmwareRollouts.path, element: <RolloutsPage /> },
              { path: paths.firmwareRolloutAdd.path, element: <RolloutAddPage /> },
              { path: paths.firmwareRollout.path, element: <RolloutPage /> },
            ],
          },
          {
            errorElement: <RouteErrorPage />,
            element: <RequireRole roles={FLOVEA} />,
            children: [
              { path: paths.customers.path, element: <CustomersPage /> },
              { path: paths.customerAdd.path, element: <CustomerAddPage /> },
              { path: paths.floveaManagers.path, element: <ManagersListPage family={FLOVEA_MANAGERS} /> },
              { path: paths.floveaManagerAdd.path, element: <ManagerAddPage family={FLOVEA_MANAGERS} /> },
              { path: paths.floveaManagerEdit.path, element: <ManagerEditPage family={FLOVEA_MANAGERS} /> },
              {
                path: paths.floveaManagerPermissions.path,
                element: <ManagerPermissionsPage family={FLOVEA_MANAGERS} />,
              },
              { path: paths.outbox.path, element: <OutboxPage /> },
              { path: paths.subscriptions.path, element: <SubscriptionsPage /> },
              { path: paths.pricingPlans.path, element: <PricingPlansPage /> },
              { path: paths.pricingPlanAdd.path, element: <PricingPlanAddPage /> },
              { path: paths.pricingPlanEdit.path, element: <PricingPlanEditPage /> },
            ],
          },
          {
            errorElement: <RouteErrorPage />,
            element: <RequireRole roles={CUSTOMER_OR_SITE} />,
            children: [{ path: paths.assistant.path, element: <AssistantPage /> }],
          },
          {
            errorElement: <RouteErrorPage />,
            element: <RequireRole roles={FLOVEA_OR_CUSTOMER} />,
            children: [
              { path: paths.customer.path, element: <CustomerOverviewPage /> },
              { path: paths.customerEdit.path, element: <CustomerEditPage /> },
              { path: paths.customerEvents.path, element: <CustomerEventsPage /> },
              { path: paths.customerManagers.path, element: <ManagersListPage family={CUSTOMER_MANAGERS} /> },
              { path: paths.customerManagerAdd.path, element: <ManagerAddPage family={CUSTOMER_MANAGERS} /> },
              {
                path: paths.customerManagerEdit.path,
                element: <ManagerEditPage family={CUSTOMER_MANAGERS} />,
              },
              {
                path: paths.customerManagerPermissions.path,
                element: <ManagerPermissionsPage family={CUSTOMER_MANAGERS} />,
              },
              { path: paths.siteAdd.path, element: <SiteAddPage /> },
              { path: paths.siteEdit.path, element: <SiteEditPage /> },
              { path: paths.siteManagers.path, element: <ManagersListPage family={SITE_MANAGERS} /> },
              { path: paths.siteManagerAdd.path, element: <ManagerAddPage family={SITE_MANAGERS} /> },
              { path: paths.siteManagerEdit.path, element: <ManagerEditPage family={SITE_MANAGERS} /> },
              {
                path: paths.siteManagerPermissions.path,
                element: <ManagerPermissionsPage family={SITE_MANAGERS} />,
              },
            ],
          },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
