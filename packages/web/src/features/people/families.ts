import { ROLES } from '@flowbox/shared';
import type { Crumb } from '../../components/PageHeader.tsx';
import { useLanguage } from '../../lib/i18n/index.ts';
import { useRequiredParam } from '../../lib/params.ts';
import { paths } from '../../paths.ts';
import { useUser } from '../auth/index.ts';
import { useCustomer } from '../customers/index.ts';
import { useCustomerZones } from '../dashboard/index.ts';
import type { ManagerFamilyPages, ManagerFamilyPlace } from '../managers/index.ts';
import { useSites } from '../sites/index.ts';

/**
 * The trail above a customer's people: the customer's page for those who read it (the provider
 * and its customer managers); a site manager has no customer page, only its sites.
 */
function usePeopleCrumbs(customerId: string): Crumb[] {
  const { t } = useLanguage();
  const user = useUser();
  const readsCustomer = user.role === ROLES.flovea_manager || user.role === ROLES.customer_manager;
  const customer = useCustomer(customerId, { enabled: readsCustomer });
  if (!readsCustomer) return [];
  return [
    ...(user.role === ROLES.flovea_manager
      ? [{ label: t('customers.title'), to: paths.customers.getHref() }]
      : []),
    { label: customer.data?.name ?? '…', to: paths.customer.getHref(customerId) },
  ];
}

function usePeopleTabs(customerId: string, current: 'end_users' | 'plumber_users') {
  const { t } = useLanguage();
  return [
    {
      label: t('end_users.title'),
      href: paths.endUsers.getHref(customerId),
      current: current === 'end_users',
    },
    {
      label: t('plumber_users.title'),
      href: paths.plumberUsers.getHref(customerId),
      current: current === 'plumber_users',
    },
  ];
}

/** docs/permissions.md "End users and plumbers": the end users of a customer's zones. */
export const END_USERS: ManagerFamilyPages = {
  name: 'end_users',
  usePlace(): ManagerFamilyPlace {
    const customerId = useRequiredParam('customerId');
    return {
      family: { role: ROLES.end_user, customerId },
      crumbs: usePeopleCrumbs(customerId),
      tabs: usePeopleTabs(customerId, 'end_users'),
      listHref: paths.endUsers.getHref(customerId),
      addHref: paths.endUserAdd.getHref(customerId),
      editHref: (id) => paths.endUserEdit.getHref(customerId, id),
      permissionsHref: (id) => paths.endUserPermissions.getHref(customerId, id),
    };
  },
  useZoneChoice() {
    // The zones in the user's scope: a site manager is offered its own sites' zones only.
    const zones = useCustomerZones(useRequiredParam('customerId'));
    return {
      loading: zones.isPending,
      options:
        zones.data?.items.map((z) => ({
          id: z.id,
          name: `${z.name} · ${z.building_name} · ${z.site_name}`,
        })) ?? [],
    };
  },
};

/** The plumbers (installers) assigned to some of a customer's sites. */
export const PLUMBER_USERS: ManagerFamilyPages = {
  name: 'plumber_users',
  usePlace(): ManagerFamilyPlace {
    const customerId = useRequiredParam('customerId');
    return {
      family: { role: ROLES.plumber, customerId },
      crumbs: usePeopleCrumbs(customerId),
      tabs: usePeopleTabs(customerId, 'plumber_users'),
      listHref: paths.plumberUsers.getHref(customerId),
      addHref: paths.plumberUserAdd.getHref(customerId),
      editHref: (id) => paths.plumberUserEdit.getHref(customerId, id),
      permissionsHref: (id) => paths.plumberUserPermissions.getHref(customerId, id),
    };
  },
  useSiteChoice() {
    const sites = useSites(useRequiredParam('customerId'));
    return {
      loading: sites.isPending,
      options: sites.data?.items.map((s) => ({ id: s.id, name: s.name })) ?? [],
    };
  },
};
