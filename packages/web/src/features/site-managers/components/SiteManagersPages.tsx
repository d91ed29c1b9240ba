import { useTranslation } from 'react-i18next';
import type { Crumb } from '../../../components/PageHeader.tsx';
import { LoadingState } from '../../../components/Spinner.tsx';
import { useRequiredParam } from '../../../lib/params.ts';
import { paths } from '../../../paths.ts';
import {
  ManagerAddPage,
  ManagerEditPage,
  ManagerPermissionsPage,
  ManagersListPage,
  type ManagerFamily,
} from '../../managers/index.ts';
import { useSite, useSiteCrumbs, useSites } from '../../sites/index.ts';

function useSiteManagersContext() {
  const { t } = useTranslation();
  const customerId = useRequiredParam('customerId');
  const siteId = useRequiredParam('siteId');
  const site = useSite(customerId, siteId);
  const family: ManagerFamily = { role: 3, customerId };
  const crumbs: Crumb[] = [
    ...useSiteCrumbs(customerId),
    { label: site.data?.name ?? '…', to: paths.site.getHref(customerId, siteId) },
  ];
  const listHref = paths.siteManagers.getHref(customerId, siteId);
  const withList = [...crumbs, { label: t('site_managers.title'), to: listHref }];
  return { t, customerId, siteId, family, crumbs, withList, listHref };
}

/** The customer's sites, to tick which ones a site manager looks after. */
function useSiteOptions(customerId: string) {
  const sites = useSites(customerId);
  return {
    loading: sites.isPending,
    options: sites.data?.items.map((s) => ({ id: s.id, name: s.name })) ?? [],
  };
}

export function SiteManagersPage() {
  const { t, customerId, siteId, family, crumbs } = useSiteManagersContext();
  return (
    <ManagersListPage
      family={family}
      title={t('site_managers.title')}
      description={t('site_managers.description')}
      breadcrumbs={crumbs}
      siteId={siteId}
      addHref={paths.siteManagerAdd.getHref(customerId, siteId)}
      editHref={(id) => paths.siteManagerEdit.getHref(customerId, siteId, id)}
      permissionsHref={(id) => paths.siteManagerPermissions.getHref(customerId, siteId, id)}
    />
  );
}

export function SiteManagerAddPage() {
  const { customerId, siteId, family, withList, listHref } = useSiteManagersContext();
  const sites = useSiteOptions(customerId);
  if (sites.loading) return <LoadingState />;
  return (
    <ManagerAddPage
      family={family}
      listHref={listHref}
      breadcrumbs={withList}
      siteOptions={sites.options}
      defaultSiteIds={[siteId]}
    />
  );
}

export function SiteManagerEditPage() {
  const { customerId, family, withList, listHref } = useSiteManagersContext();
  const managerId = useRequiredParam('siteManagerId');
  const sites = useSiteOptions(customerId);
  if (sites.loading) return <LoadingState />;
  return (
    <ManagerEditPage
      family={family}
      managerId={managerId}
      listHref={listHref}
      breadcrumbs={withList}
      siteOptions={sites.options}
    />
  );
}

export function SiteManagerPermissionsPage() {
  const { family, withList, listHref } = useSiteManagersContext();
  const managerId = useRequiredParam('siteManagerId');
  return (
    <ManagerPermissionsPage
      family={family}
      managerId={managerId}
      listHref={listHref}
      breadcrumbs={withList}
    />
  );
}
