import type { User } from '@flowbox/shared';
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { ButtonLink } from '../../../components/Button.tsx';
import { Pagination } from '../../../components/DataTable.tsx';
import { PageHeader, type Crumb } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { SearchField } from '../../../components/SearchField.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useUser } from '../../auth/index.ts';
import { useCreateManager } from '../api/create-manager.ts';
import { useManager } from '../api/get-manager.ts';
import { useManagers } from '../api/list-managers.ts';
import { useUpdateManager } from '../api/update-manager.ts';
import { canManageFamily, fullName, type ManagerFamily } from '../family.ts';
import { ManagerForm, type SiteOption } from './ManagerForm.tsx';
import { ManagersTable } from './ManagersTable.tsx';
import { PermissionsForm } from './PermissionsForm.tsx';

const PAGE_SIZE = 20;

type ListPageProps = {
  family: ManagerFamily;
  title: string;
  description: string;
  breadcrumbs?: Crumb[];
  siteId?: string;
  addHref: string;
  editHref: (managerId: string) => string;
  permissionsHref: (managerId: string) => string;
};

export function ManagersListPage({
  family,
  title,
  description,
  breadcrumbs,
  siteId,
  addHref,
  editHref,
  permissionsHref,
}: ListPageProps) {
  const { t } = useLanguage();
  const user = useUser();
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  const managers = useManagers(family, { search, limit: PAGE_SIZE, offset, site_id: siteId });
  const onSearch = useCallback((text: string) => {
    setSearch(text);
    setOffset(0);
  }, []);
  return (
    <>
      <PageHeader
        title={title}
        description={description}
        breadcrumbs={breadcrumbs}
        actions={canManageFamily(user, family) && <ButtonLink to={addHref}>{t('managers.add')}</ButtonLink>}
      />
      <SearchField label={t('managers.search')} onSearch={onSearch} />
      <QueryBoundary query={managers}>
        {(data) => (
          <>
            <ManagersTable
              family={family}
              caption={title}
              managers={data.items}
              empty={search ? t('common.no_results') : t('managers.empty')}
              editHref={editHref}
              permissionsHref={permissionsHref}
            />
            <Pagination offset={offset} limit={PAGE_SIZE} total={data.total} onChange={setOffset} />
          </>
        )}
      </QueryBoundary>
    </>
  );
}

type AddPageProps = {
  family: ManagerFamily;
  breadcrumbs?: Crumb[];
  listHref: string;
  siteOptions?: readonly SiteOption[];
  defaultSiteIds?: readonly string[];
};

export function ManagerAddPage({ family, breadcrumbs, listHref, siteOptions, defaultSiteIds }: AddPageProps) {
  const { t } = useLanguage();
  const navigate = useNavigate();
  const toast = useToast();
  const create = useCreateManager(family);
  return (
    <>
      <PageHeader title={t('managers.add')} breadcrumbs={breadcrumbs} />
      <ManagerForm
        family={family}
        mode="create"
        siteOptions={siteOptions}
        defaultSiteIds={defaultSiteIds}
        cancelTo={listHref}
        onSubmit={async (values) => {
          await create.mutateAsync(family.role === 3 ? values : { ...values, site_id: undefined });
          toast.success(t('toast.user_created'));
          await navigate(listHref);
        }}
      />
    </>
  );
}

type ManagerPageProps = {
  family: ManagerFamily;
  managerId: string;
  breadcrumbs?: Crumb[];
  listHref: string;
};

function useManagerTitle(manager: User | undefined, fallback: string) {
  return manager ? `${fallback} · ${fullName(manager)}` : fallback;
}

export function ManagerEditPage({
  family,
  managerId,
  breadcrumbs,
  listHref,
  siteOptions,
}: ManagerPageProps & { siteOptions?: readonly SiteOption[] }) {
  const { t } = useLanguage();
  const navigate = useNavigate();
  const toast = useToast();
  const manager = useManager(family, managerId);
  const update = useUpdateManager(family);
  return (
    <>
      <PageHeader title={useManagerTitle(manager.data, t('managers.edit'))} breadcrumbs={breadcrumbs} />
      <QueryBoundary query={manager}>
        {(data) => (
          <ManagerForm
            family={family}
            mode="edit"
            manager={data}
            siteOptions={siteOptions}
            cancelTo={listHref}
            onSubmit={async ({ site_id, ...values }) => {
              await update.mutateAsync({
                managerId,
                input: family.role === 3 ? { ...values, site_id } : values,
              });
              toast.success(t('toast.user_updated'));
              await navigate(listHref);
            }}
          />
        )}
      </QueryBoundary>
    </>
  );
}

export function ManagerPermissionsPage({ family, managerId, breadcrumbs, listHref }: ManagerPageProps) {
  const { t } = useLanguage();
  const navigate = useNavigate();
  const toast = useToast();
  const manager = useManager(family, managerId);
  const update = useUpdateManager(family);
  return (
    <>
      <PageHeader
        title={useManagerTitle(manager.data, t('permissions.title'))}
        description={t('permissions.description')}
        breadcrumbs={breadcrumbs}
      />
      <QueryBoundary query={manager}>
        {(data) => (
          <PermissionsForm
            manager={data}
            cancelTo={listHref}
            onSubmit={async (permissions) => {
              await update.mutateAsync({ managerId, input: { permissions } });
              toast.success(t('toast.permissions_updated'));
              await navigate(listHref);
            }}
          />
        )}
      </QueryBoundary>
    </>
  );
}
