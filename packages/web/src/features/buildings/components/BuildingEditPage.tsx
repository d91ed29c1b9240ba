import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { changesOf } from '../../../lib/form-values.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useRequiredParam } from '../../../lib/params.ts';
import { paths } from '../../../paths.ts';
import { useBuilding } from '../api/get-building.ts';
import { useUpdateBuilding } from '../api/update-building.ts';
import { BuildingForm } from './BuildingForm.tsx';
import { useBuildingCrumbs } from './useBuildingCrumbs.ts';

export function BuildingEditPage() {
  const { t } = useLanguage();
  const customerId = useRequiredParam('customerId');
  const siteId = useRequiredParam('siteId');
  const buildingId = useRequiredParam('buildingId');
  const navigate = useNavigate();
  const toast = useToast();
  const building = useBuilding(customerId, siteId, buildingId);
  const update = useUpdateBuilding(customerId, siteId, buildingId);
  const overview = paths.building.getHref(customerId, siteId, buildingId);
  return (
    <>
      <PageHeader
        title={t('buildings.edit')}
        breadcrumbs={useBuildingCrumbs(customerId, siteId, buildingId)}
      />
      <QueryBoundary query={building}>
        {(data) => (
          <BuildingForm
            building={data}
            submitLabel={t('common.save')}
            cancelTo={overview}
            onSubmit={async (values) => {
              // Only what changed is sent, so the activity log names exactly those fields.
              const changes = changesOf(data, values);
              if (Object.keys(changes).length > 0) await update.mutateAsync(changes);
              toast.success(t('buildings.updated'));
              await navigate(overview);
            }}
          />
        )}
      </QueryBoundary>
    </>
  );
}
