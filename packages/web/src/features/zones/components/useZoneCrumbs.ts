import { useTranslation } from 'react-i18next';
import type { Crumb } from '../../../components/PageHeader.tsx';
import { paths } from '../../../paths.ts';
import { useBuildingCrumbs } from '../../buildings/index.ts';
import { useZone, type ZoneRef } from '../api/get-zone.ts';

/** Customer › Sites › site › building › zone, for the screens below a zone's overview. */
export function useZoneCrumbs(ref: ZoneRef): Crumb[] {
  const { t } = useTranslation();
  const zone = useZone(ref);
  return [
    ...useBuildingCrumbs(ref.customerId, ref.siteId, ref.buildingId),
    {
      label: zone.data?.name ?? t('common.loading'),
      to: paths.zone.getHref(ref.customerId, ref.siteId, ref.buildingId, ref.zoneId),
    },
  ];
}
