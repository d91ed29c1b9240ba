import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useRequiredParam } from '../../../lib/params.ts';
import { paths } from '../../../paths.ts';
import { useCreateBuilding } from '../api/create-building.ts';
import { BuildingForm } from './BuildingForm.tsx';
import { useBuildingCrumbs } from './useBuildingCrumbs.ts';

export function BuildingAddPage() {
  const { t } = useLanguage();
  const customerId = useRequiredParam('customerId');
  const siteId = useRequiredParam('siteId');
  const navigate = useNavigate();
  const toast = useToast();
  const create = useCreateBuilding(customerId, siteId);
  return (
    <>
      <PageHeader title={t('buildings.add')} breadcrumbs={useBuildingCrumbs(customerId, siteId)} />
      <BuildingForm
        submitLabel={t('buildings.create')}
        cancelTo={paths.site.getHref(customerId, siteId)}
        onSubmit={async (values) => {
          const building = await create.mutateAsync(values);
          toast.success(t('buildings.added'));
          await navigate(paths.building.getHref(customerId, siteId, building.id));
        }}
      />
    </>
  );
}
