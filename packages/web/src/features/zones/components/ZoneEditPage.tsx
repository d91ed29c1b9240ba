import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { changesOf } from '../../../lib/form-values.ts';
import { useBuilding, useFloors } from '../../buildings/index.ts';
import { useZone } from '../api/get-zone.ts';
import { useUpdateZone } from '../api/update-zone.ts';
import { zoneFormValues } from '../form-values.ts';
import { useZoneCrumbs } from './useZoneCrumbs.ts';
import { useZoneRef } from './useZoneRef.ts';
import { ZoneForm } from './ZoneForm.tsx';

export function ZoneEditPage() {
  const { t } = useLanguage();
  const ref = useZoneRef();
  const { customerId, siteId, buildingId, zoneId } = ref;
  const navigate = useNavigate();
  const toast = useToast();
  const zone = useZone(ref);
  const building = useBuilding(customerId, siteId, buildingId);
  const floors = useFloors(customerId, siteId, buildingId);
  const update = useUpdateZone(ref);
  const overview = paths.zone.getHref(customerId, siteId, buildingId, zoneId);
  return (
    <>
      <PageHeader title={t('zones.edit')} breadcrumbs={useZoneCrumbs(ref)} />
      <QueryBoundary query={zone}>
        {(zoneData) => (
          <QueryBoundary query={building}>
            {(buildingData) => (
              <QueryBoundary query={floors}>
                {(floorList) => (
                  <ZoneForm
                    building={buildingData}
                    floors={floorList.items}
                    defaultValues={zoneFormValues(zoneData)}
                    submitLabel={t('common.save')}
                    cancelTo={overview}
                    onSubmit={async (values) => {
                      const changes = changesOf(zoneData, values);
                      if (Object.keys(changes).length === 0) {
                        toast.success(t('zones.toast_unchanged'));
                      } else {
                        await update.mutateAsync(changes);
                        toast.success(t('zones.toast_updated'));
                      }
                      await navigate(overview);
                    }}
                  />
                )}
              </QueryBoundary>
            )}
          </QueryBoundary>
        )}
      </QueryBoundary>
    </>
  );
}
