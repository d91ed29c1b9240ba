import type { Crumb } from '../../../components/PageHeader.tsx';
import { paths } from '../../../paths.ts';
import { useSite, useSiteCrumbs } from '../../sites/index.ts';
import { useBuilding } from '../api/get-building.ts';

/** Customer › Sites › the site; with a building id, › the building as well. */
export function useBuildingCrumbs(customerId: string, siteId: string, buildingId?: string): Crumb[] {
  const site = useSite(customerId, siteId);
  const building = useBuilding(customerId, siteId, buildingId ?? '', { enabled: Boolean(buildingId) });
  const crumbs: Crumb[] = [
    ...useSiteCrumbs(customerId),
    { label: site.data?.name ?? '…', to: paths.site.getHref(customerId, siteId) },
  ];
  if (buildingId)
    crumbs.push({
      label: building.data?.name ?? '…',
      to: paths.building.getHref(customerId, siteId, buildingId),
    });
  return crumbs;
}
