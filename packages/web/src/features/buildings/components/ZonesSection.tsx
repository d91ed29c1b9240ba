import type { Zone } from '@flowbox/shared';
import { Link } from 'react-router';
import { ButtonLink } from '../../../components/Button.tsx';
import { Card } from '../../../components/Card.tsx';
import { DataTable, type Column } from '../../../components/DataTable.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { useFloors } from '../api/list-floors.ts';
import { useBuildingZones } from '../api/list-zones.ts';

type ZonesSectionProps = { customerId: string; siteId: string; buildingId: string; manages: boolean };

/** The building's zones with links to their screens (the zones feature's), and "Add a zone". */
export function ZonesSection({ customerId, siteId, buildingId, manages }: ZonesSectionProps) {
  const { t } = useLanguage();
  const zones = useBuildingZones(customerId, siteId, buildingId);
  const floors = useFloors(customerId, siteId, buildingId);
  const floorLabel = (floorId: string | null) =>
    floors.data?.items.find((floor) => floor.id === floorId)?.label ?? t('buildings.zones_no_floor');

  const columns: Column<Zone>[] = [
    {
      key: 'name',
      header: t('fields.name'),
      rowHeader: true,
      cell: (z) => (
        <Link
          to={paths.zone.getHref(customerId, siteId, buildingId, z.id)}
          className="text-sky-700 hover:underline dark:text-sky-400"
        >
          {z.name}
        </Link>
      ),
    },
    { key: 'floor', header: t('buildings.zones_floor'), cell: (z) => floorLabel(z.floor_id) },
  ];
  return (
    <Card
      title={t('buildings.zones_title')}
      actions={
        manages && (
          <ButtonLink to={paths.zoneAdd.getHref(customerId, siteId, buildingId)} variant="secondary">
            {t('buildings.zones_add')}
          </ButtonLink>
        )
      }
    >
      <QueryBoundary query={zones}>
        {(data) => (
          <DataTable
            caption={t('buildings.zones_title')}
            columns={columns}
            rows={data.items}
            rowKey={(z) => z.id}
            empty={t('buildings.zones_empty')}
          />
        )}
      </QueryBoundary>
    </Card>
  );
}
