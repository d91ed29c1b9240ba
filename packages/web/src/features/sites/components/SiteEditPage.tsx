import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { useRequiredParam } from '../../../lib/params.ts';
import { paths } from '../../../paths.ts';
import { useSite } from '../api/get-site.ts';
import { useUpdateSite } from '../api/update-site.ts';
import { canDo, FLOVEA_OR_CUSTOMER, useUser } from '../../auth/index.ts';
import { SiteForm } from './SiteForm.tsx';
import { SiteImages } from './SiteImages.tsx';
import { useSiteCrumbs } from './useSiteCrumbs.ts';

export function SiteEditPage() {
  const { t } = useTranslation();
  const customerId = useRequiredParam('customerId');
  const siteId = useRequiredParam('siteId');
  const navigate = useNavigate();
  const toast = useToast();
  const user = useUser();
  const site = useSite(customerId, siteId);
  const update = useUpdateSite(customerId, siteId);
  const crumbs = [
    ...useSiteCrumbs(customerId),
    { label: site.data?.name ?? '…', to: paths.site.getHref(customerId, siteId) },
  ];
  return (
    <>
      <PageHeader title={t('sites.edit')} breadcrumbs={crumbs} />
      <QueryBoundary query={site}>
        {(data) => (
          <div className="space-y-6">
            <SiteForm
              defaultName={data.name}
              defaultCoordinates={{ latitude: data.latitude, longitude: data.longitude }}
              submitLabel={t('common.save')}
              cancelTo={paths.site.getHref(customerId, siteId)}
              onSubmit={async (values) => {
                await update.mutateAsync(values);
                toast.success(t('toast.site_updated'));
                await navigate(paths.site.getHref(customerId, siteId));
              }}
            />
            {/* Images are saved on their own, at once: the form's Save does not send them. */}
            <SiteImages
              customerId={customerId}
              site={data}
              canUpload={canDo(user, FLOVEA_OR_CUSTOMER, 'sites.manage')}
            />
          </div>
        )}
      </QueryBoundary>
    </>
  );
}
