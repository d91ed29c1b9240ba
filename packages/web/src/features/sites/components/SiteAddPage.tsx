import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { useRequiredParam } from '../../../lib/params.ts';
import { paths } from '../../../paths.ts';
import { useCreateSite } from '../api/create-site.ts';
import { SiteForm } from './SiteForm.tsx';
import { useSiteCrumbs } from './useSiteCrumbs.ts';

export function SiteAddPage() {
  const { t } = useTranslation();
  const customerId = useRequiredParam('customerId');
  const navigate = useNavigate();
  const toast = useToast();
  const create = useCreateSite(customerId);
  return (
    <>
      <PageHeader title={t('sites.add')} breadcrumbs={useSiteCrumbs(customerId)} />
      <SiteForm
        submitLabel={t('sites.create')}
        cancelTo={paths.sites.getHref(customerId)}
        onSubmit={async (values) => {
          const site = await create.mutateAsync(values);
          toast.success(t('toast.site_created'));
          await navigate(paths.site.getHref(customerId, site.id));
        }}
      />
    </>
  );
}
