import type { User } from '@flowbox/shared';
import { useCallback, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Alert } from '../../../components/Alert.tsx';
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
import { canManageFamily, fullName, isPeopleFamily, type ManagerFamily } from '../family.ts';
import { ManagerForm, placesOf, type ManagerFormValues } from './ManagerForm.tsx';
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

/** The sites or zones a family is given, whichever its pages offer (none for the other managers). */
function usePlaceChoice(family: ManagerFamilyPages) {
  return (family.useSiteChoice ?? family.useZoneChoice)?.();
}

/** The form's values with only the places the family has (a site manager's sites, an end user's zones). */
function withOwnPlaces(family: ManagerFamily, { site_id, zone_id, ...values }: ManagerFormValues) {
  const places = placesOf(family);
  if (places === 'site_id') return { ...values, site_id };
  if (places === 'zone_id') return { ...values, zone_id: zone_id ?? [] };
  return values;
}

/**
 * End users and plumbers are the business of managers with end_users.manage (the server refuses the
 * others): say so rather than show a refused page.
 */
function PeopleRefused({ place }: { place: ManagerFamilyPlace }) {
  const { t } = useLanguage();
  const user = useUser();
  if (!isPeopleFamily(place.family) || canManageFamily(user, place.family)) return null;
  return <Alert title={t('people.refused_title')}>{t('people.refused')}</Alert>;
}

/** End users and plumbers: the two lists of a customer's people, one link to the other. */
function Tabs({ place }: { place: ManagerFamilyPlace }) {
  const { t } = useLanguage();
  if (!place.tabs) return null;
  return (
    <nav
      aria-label={t('nav.people')}
      className="mb-4 flex gap-2 border-b border-slate-200 dark:border-slate-800"
    >
      {place.tabs.map((tab) => (
        <Link
          key={tab.href}
          to={tab.href}
          aria-current={tab.current ? 'page' : undefined}
          className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-sky-600 ${
            tab.current
              ? 'border-sky-700 text-sky-900 dark:border-sky-400 dark:text-sky-100'
              : 'border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-slate-100'
          }`}
        >
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}

/** The family's name when it is end users or plumbers, whose pages have their own texts. */
function peopleName(family: ManagerFamilyPages): 'end_users' | 'plumber_users' | null {
  return family.name === 'end_users' || family.name === 'plumber_users' ? family.name : null;
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
  const allowed = !isPeopleFamily(place.family) || canManageFamily(user, place.family);
  const managers = useManagers(
    place.family,
    { search, limit: PAGE_SIZE, offset, site_id: place.siteId },
    { enabled: allowed },
  );
  // End users and plumbers are listed with their zones or sites, named.
  const choice = usePlaceChoice(family);
  const people = peopleName(family);
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
            <ButtonLink to={place.addHref}>{people ? t(`${people}.add`) : t('managers.add')}</ButtonLink>
          )
        }
      />
      <Tabs place={place} />
      <PeopleRefused place={place} />
      {allowed && <SearchField label={t('managers.search')} onSearch={onSearch} />}
      {allowed && (
        <QueryBoundary query={managers}>
          {(data) => (
            <>
              <ManagersTable
                family={place.family}
                caption={title}
                managers={data.items}
                placeNames={isPeopleFamily(place.family) ? choice?.options : undefined}
                empty={search ? t('common.no_results') : people ? t(`${people}.empty`) : t('managers.empty')}
                editHref={place.editHref}
                permissionsHref={place.permissionsHref}
              />
              <Pagination offset={offset} limit={PAGE_SIZE} total={data.total} onChange={setOffset} />
            </>
          )}
        </QueryBoundary>
      )}
    </>
  );
}

function AddPage({ family }: FamilyProps) {
  const { t } = useLanguage();
  const navigate = useNavigate();
  const toast = useToast();
  const place = family.usePlace();
  const sites = usePlaceChoice(family);
  const create = useCreateManager(place.family);
  const breadcrumbs = useUnderList(family, place);
  const people = peopleName(family);
  if (sites?.loading) return <LoadingState />;
  return (
    <>
      <PageHeader title={people ? t(`${people}.add`) : t('managers.add')} breadcrumbs={breadcrumbs} />
      <PeopleRefused place={place} />
      <ManagerForm
        family={place.family}
        mode="create"
        siteOptions={sites?.options}
        defaultSiteIds={place.siteId ? [place.siteId] : undefined}
        cancelTo={place.listHref}
        onSubmit={async (values) => {
          await create.mutateAsync(withOwnPlaces(place.family, values) as ManagerFormValues);
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
  const sites = usePlaceChoice(family);
  const manager = useManager(place.family, managerId);
  const update = useUpdateManager(place.family);
  const people = peopleName(family);
  const title = useManagerTitle(manager.data, people ? t(`${people}.edit`) : t('managers.edit'));
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
            onSubmit={async (values) => {
              await update.mutateAsync({ managerId, input: withOwnPlaces(place.family, values) });
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
        description={peopleName(family) ? t('people.permissions_note') : t('permissions.description')}
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
