import { PageHeader } from '../../../components/PageHeader.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useRequiredParam } from '../../../lib/params.ts';
import { paths } from '../../../paths.ts';
import { useSite, useSiteCrumbs } from '../../sites/index.ts';
import { ActivityLog } from './ActivityLog.tsx';

/** spec §2: a site's activity log, also open to the site managers of that site. */
export function SiteEventsPage() {
  const { t } = useLanguage();
  const customerId = useRequiredParam('customerId');
  const siteId = useRequiredParam('siteId');
  const site = useSite(customerId, siteId);
  const crumbs = [
    ...useSiteCrumbs(customerId),
    { label: site.data?.name ?? '…', to: paths.site.getHref(customerId, siteId) },
  ];
  return (
    <>
      <PageHeader title={t('events.title')} description={t('events.description_site')} breadcrumbs={crumbs} />
      <ActivityLog scope={{ level: 'site', customerId, siteId }} />
    </>
  );
}
