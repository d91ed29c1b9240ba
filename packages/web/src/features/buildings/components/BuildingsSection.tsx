import type { Building } from '@flowbox/shared';
import { useCallback, useState } from 'react';
import { Link } from 'react-router';
import { ButtonLink } from '../../../components/Button.tsx';
import { Card } from '../../../components/Card.tsx';
import { DataTable, type Column } from '../../../components/DataTable.tsx';
import { EmptyState } from '../../../components/EmptyState.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { SearchField } from '../../../components/SearchField.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { ANY_ROLE, canDo, useUser } from '../../auth/index.ts';
import { useBuildings } from '../api/list-buildings.ts';

/** The buildings of a site, with their floor and zone counts, as a table. */
export function BuildingsTable({
  customerId,
  siteId,
  buildings,
  empty,
}: {
  customerId: string;
  siteId: string;
  buildings: readonly Building[];
  empty: string;
}) {
  const { t } = useLanguage();
  const columns: Column<Building>[] = [
    {
      key: 'name',
      header: t('fields.name'),
      rowHeader: true,
      cell: (b) => (
        <Link
          to={paths.building.getHref(customerId, siteId, b.id)}
          className="text-sky-700 hover:underline dark:text-sky-400"
        >
          {b.name}
        </Link>
      ),
    },
    {
      key: 'type',
      header: t('buildings.field.type'),
      hideOnMobile: true,
      cell: (b) => t(`buildings.type.${b.type}`),
    },
    { key: 'city', header: t('buildings.location'), hideOnMobile: true, cell: (b) => b.city },
    { key: 'floors', header: t('buildings.floor_count'), cell: (b) => b.floor_count },
    { key: 'zones', header: t('buildings.zone_count'), cell: (b) => b.zone_count },
  ];
  return (
    <DataTable
      caption={t('buildings.title')}
      columns={columns}
      rows={buildings}
      rowKey={(b) => b.id}
      empty={empty}
    />
  );
}

/** The site overview's buildings: search, counts, links, and "Add a building" for those allowed. */
export function BuildingsSection({ customerId, siteId }: { customerId: string; siteId: string }) {
  const { t } = useLanguage();
  const user = useUser();
  const [search, setSearch] = useState('');
  const buildings = useBuildings(customerId, siteId, search);
  const onSearch = useCallback((text: string) => setSearch(text), []);
  // docs/permissions.md: every role may add buildings within its scope, unless buildings.manage is denied.
  const manages = canDo(user, ANY_ROLE, 'buildings.manage');
  const addLink = manages && (
    <ButtonLink to={paths.buildingAdd.getHref(customerId, siteId)}>{t('buildings.add')}</ButtonLink>
  );
  return (
    <Card title={t('buildings.title')} actions={addLink}>
      <SearchField label={t('buildings.search')} onSearch={onSearch} />
      <QueryBoundary query={buildings}>
        {(data) =>
          data.items.length === 0 && !search ? (
            <EmptyState title={t('buildings.empty')}>
              {manages && (
                <div className="space-y-3">
                  <p>{t('buildings.empty_hint')}</p>
                  {addLink}
                </div>
              )}
            </EmptyState>
          ) : (
            <BuildingsTable
              customerId={customerId}
              siteId={siteId}
              buildings={data.items}
              empty={t('common.no_results')}
            />
          )
        }
      </QueryBoundary>
    </Card>
  );
}
