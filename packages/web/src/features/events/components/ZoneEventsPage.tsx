import { PageHeader } from '../../../components/PageHeader.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useZoneCrumbs, useZoneRef } from '../../zones/index.ts';
import { ActivityLog } from './ActivityLog.tsx';

/** spec §2: a zone's activity log, the zone's changes and its water points'. */
export function ZoneEventsPage() {
  const { t } = useLanguage();
  const ref = useZoneRef();
  return (
    <>
      <PageHeader
        title={t('events.title')}
        description={t('events.description_zone')}
        breadcrumbs={useZoneCrumbs(ref)}
      />
      <ActivityLog scope={{ level: 'zone', ...ref }} />
    </>
  );
}
