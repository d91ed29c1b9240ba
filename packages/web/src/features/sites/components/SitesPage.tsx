import { ROLES, type Site } from '@flowbox/shared';
import { useCallback, useState } from 'react';
import { Link } from 'react-router';
import { ButtonLink } from '../../../components/Button.tsx';
import { DataTable, type Column } from '../../../components/DataTable.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { SearchField } from '../../../components/SearchField.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useRequiredParam } from '../../../lib/params.ts';
import { paths } from '../../../paths.ts';
import { canDo, FLOVEA_OR_CUSTOMER, useUser } from '../../auth/index.ts';
import { useSites } from '../api/list-sites.ts';
import { useSiteCrumbs } from './useSiteCrumbs.ts';

/** The sites of a customer, as a table; also used by the dashboard. */
export function SitesTable({
  customerId,
  sites,
  empty,
}: {
  customerId: string;
  sites: readonly Site[];
  empty: string;
}) {
  const { t, language } = useLanguage();
  const columns: Column<Site>[] = [
    {
      key: 'name',
      header: t('fields.name'),
      rowHeader: true,
      cell: (s) => (
        <Link
          to={paths.site.getHref(customerId, s.id)}
          className="text-sky-700 hover:underline dark:text-sky-400"
        >
          {s.name}
        </Link>
      ),
    },
    { key: 'buildings', header: t('sites.building_count'), cell: (s) => s.building_count },
    {
      key: 'created',
      header: t('fields.created_at'),
      hideOnMobile: true,
      cell: (s) => formatDate(s.created_at, language),
    },
  ];
  return (
    <DataTable caption={t('sites.title')} columns={columns} rows={sites} rowKey={(s) => s.id} empty={empty} />
  );
}

export function SitesPage() {
  const { t } = useLanguage();
  const customerId = useRequiredParam('customerId');
  const user = useUser();
  const [search, setSearch] = useState('');
  const sites = useSites(customerId, search);
  const crumbs = useSiteCrumbs(customerId).slice(0, -1);
  const onSearch = useCallback((text: string) => setSearch(text), []);
  return (
    <>
      <PageHeader
        title={t('sites.title')}
        description={
          user.role === ROLES.site_manager || user.role === ROLES.plumber
            ? t('sites.description_own')
            : t('sites.description')
        }
        breadcrumbs={crumbs}
        actions={
          canDo(user, FLOVEA_OR_CUSTOMER, 'sites.manage') && (
            <ButtonLink to={paths.siteAdd.getHref(customerId)}>{t('sites.add')}</ButtonLink>
          )
        }
      />
      <SearchField label={t('sites.search')} onSearch={onSearch} />
      <QueryBoundary query={sites}>
        {(data) => (
          <SitesTable
            customerId={customerId}
            sites={data.items}
            empty={search ? t('common.no_results') : t('sites.empty')}
          />
        )}
      </QueryBoundary>
    </>
  );
}
