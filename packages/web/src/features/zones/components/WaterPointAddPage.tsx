import { useNavigate } from 'react-router';
import { Card } from '../../../components/Card.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { useCreateWaterPoint } from '../api/create-water-point.ts';
import { useZoneCrumbs } from './useZoneCrumbs.ts';
import { useZoneRef } from './useZoneRef.ts';
import { WaterPointForm } from './WaterPointForm.tsx';

export function WaterPointAddPage() {
  const { t } = useLanguage();
  const ref = useZoneRef();
  const navigate = useNavigate();
  const toast = useToast();
  const create = useCreateWaterPoint(ref);
  const list = paths.waterPoints.getHref(ref.customerId, ref.siteId, ref.buildingId, ref.zoneId);
  const crumbs = [...useZoneCrumbs(ref), { label: t('water_points.title'), to: list }];
  return (
    <>
      <PageHeader title={t('water_points.add')} breadcrumbs={crumbs} />
      <Card>
        <WaterPointForm
          submitLabel={t('water_points.create')}
          cancelTo={list}
          onSubmit={async (values) => {
            await create.mutateAsync(values);
            toast.success(t('water_points.toast_created'));
            await navigate(list);
          }}
        />
      </Card>
    </>
  );
}
