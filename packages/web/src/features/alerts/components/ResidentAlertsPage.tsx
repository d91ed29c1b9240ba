import { Navigate, useParams } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { END_USER, hasRole, useUser } from '../../auth/index.ts';
import { AlertList } from './AlertList.tsx';

/**
 * The resident's alerts of one zone (issue 33, docs/permissions.md "An end user's zone home"): what
 * is going on now, then the history, older pages on demand; each leak or abnormal use asks "Was
 * this you?". Told in the building's unit and time, as on the managers' screen (AlertItem). A
 * manager is sent to the alerts screen narrowed to the zone.
 */
export function ResidentAlertsPage() {
  const { zoneId = '' } = useParams();
  const { t } = useLanguage();
  const user = useUser();
  if (!hasRole(user, END_USER))
    return <Navigate to={`${paths.notifications.getHref()}?zone_id=${encodeURIComponent(zoneId)}`} replace />;
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title={t('alerts.resident.title')}
        description={t('alerts.resident.description')}
        breadcrumbs={[{ label: t('alerts.resident.back'), to: paths.myZone.getHref(zoneId) }]}
      />
      <section aria-labelledby="resident-alerts-now" className="mb-8">
        <h2 id="resident-alerts-now" className="mb-3 text-lg font-semibold">
          {t('alerts.resident.now')}
        </h2>
        <AlertList
          filters={{ zone_id: zoneId, state: 'active' }}
          emptyTitle={t('alerts.resident.none_now')}
          emptyText={t('alerts.resident.none_now_text')}
        />
      </section>
      <section aria-labelledby="resident-alerts-history">
        <h2 id="resident-alerts-history" className="mb-3 text-lg font-semibold">
          {t('alerts.resident.history')}
        </h2>
        <AlertList
          filters={{ zone_id: zoneId, state: 'resolved' }}
          emptyTitle={t('alerts.resident.no_history')}
        />
      </section>
    </div>
  );
}
