import { PageHeader } from '../../../components/PageHeader.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useRequiredParam } from '../../../lib/params.ts';
import { useBuildingCrumbs } from '../../buildings/index.ts';
import { ActivityLog } from './ActivityLog.tsx';

/** spec §2: a building's activity log, its floors, zones and water points included. */
export function BuildingEventsPage() {
  const { t } = useLanguage();
  const customerId = useRequiredParam('customerId');
  const siteId = useRequiredParam('siteId');
  const buildingId = useRequiredParam('buildingId');
  return (
    <>
      <PageHeader
        title={t('events.title')}
        description={t('events.description_building')}
        breadcrumbs={useBuildingCrumbs(customerId, siteId, buildingId)}
      />
      <ActivityLog scope={{ level: 'building', customerId, siteId, buildingId }} />
    </>
  );
}
