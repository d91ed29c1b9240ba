import { ROLES } from '@flowbox/shared';
import type { Crumb } from '../../../components/PageHeader.tsx';
import { paths } from '../../../paths.ts';
import { useUser } from '../../auth/index.ts';
import { useZone, useZoneCrumbs, type ZoneRef } from '../../zones/index.ts';

/**
 * Where a schedule page leads back to, and its breadcrumbs: the zone's overview for a manager; for
 * an end user (docs/permissions.md, `schedules.manage`), its zone home, the one page of the zone it
 * has (the site and building pages are not its own).
 */
export function useWayBack(ref: ZoneRef): { back: string; crumbs: Crumb[] } {
  const user = useUser();
  const zone = useZone(ref);
  const managerCrumbs = useZoneCrumbs(ref);
  if (user.role === ROLES.end_user) {
    const back = paths.myZone.getHref(ref.zoneId);
    return { back, crumbs: [{ label: zone.data?.name ?? '…', to: back }] };
  }
  return {
    back: paths.zone.getHref(ref.customerId, ref.siteId, ref.buildingId, ref.zoneId),
    crumbs: managerCrumbs,
  };
}
