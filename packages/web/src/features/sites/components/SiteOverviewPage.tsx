import type { Site } from '@flowbox/shared';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Button, ButtonLink } from '../../../components/Button.tsx';
import { Card, DescriptionList } from '../../../components/Card.tsx';
import { ConfirmDeleteDialog } from '../../../components/ConfirmDeleteDialog.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { SectionLink } from '../../../components/SectionLink.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useRequiredParam } from '../../../lib/params.ts';
import { paths } from '../../../paths.ts';
import { ANY_ROLE, canDo, FLOVEA_OR_CUSTOMER, hasRole, useUser } from '../../auth/index.ts';
import { useDeleteSite } from '../api/delete-site.ts';
import { useSite } from '../api/get-site.ts';
import { SiteImages } from './SiteImages.tsx';
import { useSiteCrumbs } from './useSiteCrumbs.ts';

/** What a site's page knows, for the cards of other features it shows. */
export type SiteOverviewContext = { customerId: string; site: Site };

/**
 * The cards other features lend a site's page, composed by the app (app/routes/sites.tsx): the page
 * decides where each goes and who sees it.
 */
export type SiteOverviewWidgets = Record<
  'openAlerts' | 'consumption' | 'zonesComparison' | 'buildings',
  (context: SiteOverviewContext) => ReactNode
>;

function SiteOverview({ widgets, ...context }: SiteOverviewContext & { widgets: SiteOverviewWidgets }) {
  const { customerId, site } = context;
  const { t, language } = useLanguage();
  const user = useUser();
  const navigate = useNavigate();
  const toast = useToast();
  const [deleting, setDeleting] = useState(false);
  const remove = useDeleteSite(customerId, site.id);
  const crumbs = useSiteCrumbs(customerId);
  const manages = canDo(user, FLOVEA_OR_CUSTOMER, 'sites.manage');
  // docs/permissions.md: a plumber reads no activity log and no consumption (issue 18).
  const manager = hasRole(user, ANY_ROLE);

  return (
    <>
      <PageHeader
        title={site.name}
        description={t('sites.overview')}
        breadcrumbs={crumbs}
        actions={
          manages && (
            <>
              <ButtonLink to={paths.siteEdit.getHref(customerId, site.id)} variant="secondary">
                {t('common.edit')}
              </ButtonLink>
              <Button variant="danger" onClick={() => setDeleting(true)}>
                {t('common.delete')}
              </Button>
            </>
          )
        }
      />
      <div className="space-y-6">
        {manager && (
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {hasRole(user, FLOVEA_OR_CUSTOMER) && (
              <SectionLink
                to={paths.siteManagers.getHref(customerId, site.id)}
                title={t('site_managers.title')}
                detail={t('site_managers.description')}
              />
            )}
            <SectionLink
              to={paths.siteEvents.getHref(customerId, site.id)}
              title={t('events.title')}
              detail={t('events.description_site')}
            />
            <SectionLink
              to={paths.siteReports.getHref(customerId, site.id)}
              title={t('reports.title')}
              detail={t('reports.section_detail')}
            />
          </div>
        )}
        {widgets.openAlerts(context)}
        {manager && widgets.consumption(context)}
        {manager && widgets.zonesComparison(context)}
        <Card title={t('sites.section_general')}>
          <DescriptionList
            items={[
              { label: t('fields.name'), value: site.name },
              { label: t('sites.building_count'), value: site.building_count },
              { label: t('fields.created_at'), value: formatDate(site.created_at, language) },
            ]}
          />
        </Card>
        {widgets.buildings(context)}
        <SiteImages customerId={customerId} site={site} canUpload={manages} />
      </div>
      {manages && (
        <ConfirmDeleteDialog
          open={deleting}
          onClose={() => setDeleting(false)}
          name={site.name}
          consequence={t('sites.delete_consequence')}
          onConfirm={async (confirmName) => {
            await remove.mutateAsync(confirmName);
            setDeleting(false);
            toast.success(t('toast.site_deleted'));
            await navigate(paths.sites.getHref(customerId));
          }}
        />
      )}
    </>
  );
}

export function SiteOverviewPage({ widgets }: { widgets: SiteOverviewWidgets }) {
  const customerId = useRequiredParam('customerId');
  const siteId = useRequiredParam('siteId');
  const site = useSite(customerId, siteId);
  return (
    <QueryBoundary query={site}>
      {(data) => <SiteOverview customerId={customerId} site={data} widgets={widgets} />}
    </QueryBoundary>
  );
}
