import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { useCreateZone } from '../api/create-zone.ts';
import { useBuilding, useBuildingCrumbs, useFloors } from '../../buildings/index.ts';
import { useBuildingRef } from './useZoneRef.ts';
import { ZoneForm } from './ZoneForm.tsx';

export function ZoneAddPage() {
  const { t } = useLanguage();
  const { customerId, siteId, buildingId } = useBuildingRef();
  const navigate = useNavigate();
  const toast = useToast();
  const building = useBuilding(customerId, siteId, buildingId);
  const floors = useFloors(customerId, siteId, buildingId);
  const create = useCreateZone(customerId, siteId, buildingId);
  return (
    <>
      <PageHeader title={t('zones.add')} breadcrumbs={useBuildingCrumbs(customerId, siteId, buildingId)} />
      <QueryBoundary query={building}>
        {(buildingData) => (
          <QueryBoundary query={floors}>
            {(floorList) => (
              <ZoneForm
                building={buildingData}
                floors={floorList.items}
                submitLabel={t('zones.create')}
                cancelTo={paths.building.getHref(customerId, siteId, buildingId)}
                onSubmit={async (values) => {
                  const zone = await create.mutateAsync(values);
                  toast.success(t('zones.toast_created'));
                  await navigate(paths.zone.getHref(customerId, siteId, buildingId, zone.id));
                }}
              />
            )}
          </QueryBoundary>
        )}
      </QueryBoundary>
    </>
  );
}
