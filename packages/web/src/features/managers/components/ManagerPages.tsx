import { ROLES, type User } from '@flowbox/shared';
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { ButtonLink } from '../../../components/Button.tsx';
import { Pagination } from '../../../components/DataTable.tsx';
import { PageHeader, type Crumb } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { SearchField } from '../../../components/SearchField.tsx';
import { LoadingState } from '../../../components/Spinner.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useRequiredParam } from '../../../lib/params.ts';
import { useUser } from '../../auth/index.ts';
import { useCreateManager } from '../api/create-manager.ts';
import { useManager } from '../api/get-manager.ts';
import { useManagers } from '../api/list-managers.ts';
import { useUpdateManager } from '../api/update-manager.ts';
import type { ManagerFamilyPages, ManagerFamilyPlace } from '../family-pages.ts';
import { canManageFamily, fullName } from '../family.ts';
import { ManagerForm } from './ManagerForm.tsx';
import { ManagersTable } from './ManagersTable.tsx';
import { PermissionsForm } from './PermissionsForm.tsx';

const PAGE_SIZE = 20;

type FamilyProps = { family: ManagerFamilyPages };

/**
 * The pages call the family's own hooks, so a route that swaps one family for another must mount a
 * fresh page rather than reuse this one: hence the key.
 */
export function ManagersListPage({ family }: FamilyProps) {
  return <ListPage key={family.name} family={family} />;
}

export function ManagerAddPage({ family }: FamilyProps) {
  return <AddPage key={family.name} family={family} />;
}

export function ManagerEditPage({ family }: FamilyProps) {
  return <EditPage key={family.name} family={family} />;
}

export function ManagerPermissionsPage({ family }: FamilyProps) {
  return <PermissionsPage key={family.name} family={family} />;
}

/** The list's trail plus the list itself, for the pages under it. */
function useUnderList(family: ManagerFamilyPages, place: ManagerFamilyPlace): Crumb[] {
  const { t } = useLanguage();
  return [...place.crumbs, { label: t(`${family.name}.title`), to: place.listHref }];
}

function ListPage({ family }: FamilyProps) {
  const { t } = useLanguage();
  const user = useUser();
  const place = family.usePlace();
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  const managers = useManagers(place.family, { search, limit: PAGE_SIZE, offset, site_id: place.siteId });
  const onSearch = useCallback((text: string) => {
    setSearch(text);
    setOffset(0);
  }, []);
  const title = t(`${family.name}.title`);
  return (
    <>
      <PageHeader
        title={title}
        description={t(`${family.name}.description`)}
        breadcrumbs={place.crumbs}
        actions={
          canManageFamily(user, place.family) && (
            <ButtonLink to={place.addHref}>{t('managers.add')}</ButtonLink>
          )
        }
      />
      <SearchField label={t('managers.search')} onSearch={onSearch} />
      <QueryBoundary query={managers}>
        {(data) => (
          <>
            <ManagersTable
              family={place.family}
              caption={title}
              managers={data.items}
              empty={search ? t('common.no_results') : t('managers.empty')}
              editHref={place.editHref}
              permissionsHref={place.permissionsHref}
            />
            <Pagination offset={offset} limit={PAGE_SIZE} total={data.total} onChange={setOffset} />
          </>
        )}
      </QueryBoundary>
    </>
  );
}

function AddPage({ family }: FamilyProps) {
  const { t } = useLanguage();
  const navigate = useNavigate();
  const toast = useToast();
  const place = family.usePlace();
  const sites = family.useSiteChoice?.();
  const create = useCreateManager(place.family);
  const breadcrumbs = useUnderList(family, place);
  if (sites?.loading) return <LoadingState />;
  return (
    <>
      <PageHeader title={t('managers.add')} breadcrumbs={breadcrumbs} />
      <ManagerForm
        family={place.family}
        mode="create"
        siteOptions={sites?.options}
        defaultSiteIds={place.siteId ? [place.siteId] : undefined}
        cancelTo={place.listHref}
        onSubmit={async (values) => {
          await create.mutateAsync(
            place.family.role === ROLES.site_manager ? values : { ...values, site_id: undefined },
          );
          toast.success(t('toast.user_created'));
          await navigate(place.listHref);
        }}
      />
    </>
  );
}

function useManagerTitle(manager: User | undefined, fallback: string) {
  return manager ? `${fallback} · ${fullName(manager)}` : fallback;
}

function EditPage({ family }: FamilyProps) {
  const { t } = useLanguage();
  const navigate = useNavigate();
  const toast = useToast();
  const managerId = useRequiredParam('managerId');
  const place = family.usePlace();
  const sites = family.useSiteChoice?.();
  const manager = useManager(place.family, managerId);
  const update = useUpdateManager(place.family);
  const title = useManagerTitle(manager.data, t('managers.edit'));
  const breadcrumbs = useUnderList(family, place);
  if (sites?.loading) return <LoadingState />;
  return (
    <>
      <PageHeader title={title} breadcrumbs={breadcrumbs} />
      <QueryBoundary query={manager}>
        {(data) => (
          <ManagerForm
            family={place.family}
            mode="edit"
            manager={data}
            siteOptions={sites?.options}
            cancelTo={place.listHref}
            onSubmit={async ({ site_id, ...values }) => {
              await update.mutateAsync({
                managerId,
                input: place.family.role === ROLES.site_manager ? { ...values, site_id } : values,
              });
              toast.success(t('toast.user_updated'));
              await navigate(place.listHref);
            }}
          />
        )}
      </QueryBoundary>
    </>
  );
}

function PermissionsPage({ family }: FamilyProps) {
  const { t } = useLanguage();
  const navigate = useNavigate();
  const toast = useToast();
  const managerId = useRequiredParam('managerId');
  const place = family.usePlace();
  const manager = useManager(place.family, managerId);
  const update = useUpdateManager(place.family);
  return (
    <>
      <PageHeader
        title={useManagerTitle(manager.data, t('permissions.title'))}
        description={t('permissions.description')}
        breadcrumbs={useUnderList(family, place)}
      />
      <QueryBoundary query={manager}>
        {(data) => (
          <PermissionsForm
            manager={data}
            cancelTo={place.listHref}
            onSubmit={async (permissions) => {
              await update.mutateAsync({ managerId, input: { permissions } });
              toast.success(t('toast.permissions_updated'));
              await navigate(place.listHref);
            }}
          />
        )}
      </QueryBoundary>
    </>
  );
}
