import type { Building, Zone } from '@flowbox/shared';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Button, ButtonLink } from '../../../components/Button.tsx';
import { Card, DescriptionList } from '../../../components/Card.tsx';
import { ConfirmDeleteDialog } from '../../../components/ConfirmDeleteDialog.tsx';
import { OpeningHoursTable } from '../../../components/OpeningHoursTable.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { SectionLink } from '../../../components/SectionLink.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useRequiredParam } from '../../../lib/params.ts';
import { paths } from '../../../paths.ts';
import { ANY_ROLE, canDo, hasRole, useUser } from '../../auth/index.ts';
import { ImageUpload } from '../../../components/images/ImageUpload.tsx';
import { useBuildingZones } from '../api/list-zones.ts';
import { useDeleteBuilding } from '../api/delete-building.ts';
import { useBuilding } from '../api/get-building.ts';
import { countryName, formatPrice } from '../display.ts';
import { FloorsSection } from './FloorsSection.tsx';
import { useBuildingCrumbs } from './useBuildingCrumbs.ts';
import { ZonesSection } from './ZonesSection.tsx';

/** What a building's page knows, for the cards of other features it shows. */
export type BuildingOverviewContext = {
  building: Building;
  /** The user may change the building (buildings.manage). */
  manages: boolean;
  /** The building's zones; undefined while they load. */
  zones: readonly Zone[] | undefined;
};

/**
 * The cards other features lend a building's page, composed by the app (app/routes/buildings.tsx):
 * the page decides where each goes and who sees it.
 */
export type BuildingOverviewWidgets = Record<
  'openAlerts' | 'consumption' | 'zonesComparison' | 'leaks' | 'waterBalance',
  (context: BuildingOverviewContext) => ReactNode
>;

function BuildingOverview({ building, widgets }: { building: Building; widgets: BuildingOverviewWidgets }) {
  const { t, language } = useLanguage();
  const user = useUser();
  const navigate = useNavigate();
  const toast = useToast();
  const [deleting, setDeleting] = useState(false);
  const { customer_id: customerId, site_id: siteId, id: buildingId } = building;
  const remove = useDeleteBuilding(customerId, siteId, buildingId);
  const crumbs = useBuildingCrumbs(customerId, siteId);
  // docs/permissions.md: writing needs the building's scope (checked by the server) and buildings.manage.
  const manages = canDo(user, ANY_ROLE, 'buildings.manage');
  // docs/permissions.md: a plumber reads no activity log, no consumption and no price (issue 18).
  const manager = hasRole(user, ANY_ROLE);
  const notProvided = (
    <span className="text-slate-500 dark:text-slate-400">{t('buildings.not_provided')}</span>
  );
  const count = (value: number | null) => value ?? notProvided;
  const imageTarget = { owner: 'building', customerId, siteId, buildingId } as const;
  // The zones listed below, from the same query: one of them may be the main supply.
  const zones = useBuildingZones(customerId, siteId, buildingId);
  const context = { building, manages, zones: zones.data?.items };

  return (
    <>
      <PageHeader
        title={building.name}
        description={`${t(`buildings.type.${building.type}`)} · ${building.city}`}
        breadcrumbs={crumbs}
        actions={
          manages && (
            <>
              <ButtonLink to={paths.buildingEdit.getHref(customerId, siteId, buildingId)} variant="secondary">
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
            <SectionLink
              to={paths.buildingEvents.getHref(customerId, siteId, buildingId)}
              title={t('events.title')}
              detail={t('events.description_building')}
            />
          </div>
        )}
        {widgets.openAlerts(context)}
        {manager && widgets.consumption(context)}
        {manager && widgets.zonesComparison(context)}
        {manager && widgets.leaks(context)}
        {manager && widgets.waterBalance(context)}
        <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
          <Card title={t('buildings.section_general')}>
            <DescriptionList
              items={[
                { label: t('buildings.field.type'), value: t(`buildings.type.${building.type}`) },
                {
                  label: t('buildings.field.address'),
                  value: (
                    <address className="not-italic">
                      {building.address}
                      <br />
                      {building.zipCode} {building.city}
                      <br />
                      {countryName(building.country, language)}
                    </address>
                  ),
                },
                { label: t('buildings.field.nbfloor'), value: count(building.nbfloor) },
                { label: t('buildings.field.occupants'), value: count(building.occupants) },
                { label: t('buildings.field.nbequipment'), value: count(building.nbequipment) },
                {
                  label: t('buildings.section_occupancy'),
                  value: t('buildings.field.recorded', {
                    floors: building.floor_count,
                    zones: building.zone_count,
                  }),
                },
                { label: t('fields.created_at'), value: formatDate(building.created_at, language) },
              ]}
            />
          </Card>
          <Card title={manager ? t('buildings.section_water') : t('plumberweb.section_water')}>
            <DescriptionList
              items={[
                {
                  label: t('buildings.field.volume_unit'),
                  value: t(`volume_unit.${building.volume_unit}`),
                },
                ...(manager
                  ? [
                      { label: t('buildings.field.currency'), value: building.currency },
                      {
                        label: t('buildings.field.price_per_unit'),
                        value: building.price_per_unit
                          ? t('buildings.price_value', {
                              price: formatPrice(building.price_per_unit, building.currency, language),
                              unit: t(`buildings.unit_short.${building.volume_unit}`),
                            })
                          : notProvided,
                      },
                    ]
                  : []),
                { label: t('buildings.field.timezone'), value: building.timezone.replaceAll('_', ' ') },
                {
                  label: t('buildings.field.first_day_of_week'),
                  value: t(`buildings.day.${building.first_day_of_week}`),
                },
                {
                  label: t('buildings.field.weekend'),
                  value: building.weekend.length
                    ? building.weekend.map((day) => t(`buildings.day.${day}`)).join(', ')
                    : notProvided,
                },
              ]}
            />
          </Card>
        </div>
        <Card title={t('buildings.field.opening_hours')}>
          {building.opening_hours ? (
            <OpeningHoursTable
              hours={building.opening_hours}
              firstDayOfWeek={building.first_day_of_week}
              weekend={building.weekend}
            />
          ) : (
            <p className="text-sm">{notProvided}</p>
          )}
        </Card>
        <Card title={t('buildings.section_images')}>
          <div className="grid grid-cols-1 gap-6 md:grid-cols-2">
            <ImageUpload
              target={{ ...imageTarget, kind: 'picture' }}
              label={t('buildings.picture')}
              alt={t('buildings.picture_alt', { name: building.name })}
              url={building.picture}
              canUpload={manages}
            />
            <ImageUpload
              target={{ ...imageTarget, kind: 'plan' }}
              label={t('buildings.plan')}
              alt={t('buildings.plan_alt', { name: building.name })}
              url={building.plan}
              canUpload={manages}
            />
          </div>
        </Card>
        <FloorsSection customerId={customerId} siteId={siteId} buildingId={buildingId} manages={manages} />
        <ZonesSection customerId={customerId} siteId={siteId} buildingId={buildingId} manages={manages} />
      </div>
      {manages && (
        <ConfirmDeleteDialog
          open={deleting}
          onClose={() => setDeleting(false)}
          name={building.name}
          consequence={t('buildings.delete_consequence')}
          onConfirm={async (confirmName) => {
            await remove.mutateAsync(confirmName);
            setDeleting(false);
            toast.success(t('buildings.deleted'));
            await navigate(paths.site.getHref(customerId, siteId));
          }}
        />
      )}
    </>
  );
}

export function BuildingOverviewPage({ widgets }: { widgets: BuildingOverviewWidgets }) {
  const customerId = useRequiredParam('customerId');
  const siteId = useRequiredParam('siteId');
  const buildingId = useRequiredParam('buildingId');
  const building = useBuilding(customerId, siteId, buildingId);
  return (
    <QueryBoundary query={building}>
      {(data) => <BuildingOverview building={data} widgets={widgets} />}
    </QueryBoundary>
  );
}
