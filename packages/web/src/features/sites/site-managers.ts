import { ROLES } from '@flowbox/shared';
import type { Crumb } from '../../components/PageHeader.tsx';
import { useRequiredParam } from '../../lib/params.ts';
import { paths } from '../../paths.ts';
import type { ManagerFamilyPages } from '../managers/index.ts';
import { useSite } from './api/get-site.ts';
import { useSites } from './api/list-sites.ts';
import { useSiteCrumbs } from './components/useSiteCrumbs.ts';

/** A site's managers: listed under the site, each looking after some of the customer's sites. */
export const SITE_MANAGERS: ManagerFamilyPages = {
  name: 'site_managers',
  usePlace() {
    const customerId = useRequiredParam('customerId');
    const siteId = useRequiredParam('siteId');
    const site = useSite(customerId, siteId);
    const crumbs: Crumb[] = [
      ...useSiteCrumbs(customerId),
      { label: site.data?.name ?? '…', to: paths.site.getHref(customerId, siteId) },
    ];
    return {
      family: { role: ROLES.site_manager, customerId },
      crumbs,
      siteId,
      listHref: paths.siteManagers.getHref(customerId, siteId),
      addHref: paths.siteManagerAdd.getHref(customerId, siteId),
      editHref: (id) => paths.siteManagerEdit.getHref(customerId, siteId, id),
      permissionsHref: (id) => paths.siteManagerPermissions.getHref(customerId, siteId, id),
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
