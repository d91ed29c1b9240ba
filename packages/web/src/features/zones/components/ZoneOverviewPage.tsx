import type { Building, Flowbox, Floor, PriceTerms, Zone } from '@flowbox/shared';
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Button, ButtonLink } from '../../../components/Button.tsx';
import { Card, DescriptionList } from '../../../components/Card.tsx';
import { ConfirmDeleteDialog } from '../../../components/ConfirmDeleteDialog.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { SectionLink } from '../../../components/SectionLink.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { formatDate, formatDateTime } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { ANY_ROLE, canDo, hasRole, useUser } from '../../auth/index.ts';
import { useDeleteZone } from '../api/delete-zone.ts';
import { OpeningHoursTable } from '../../../components/OpeningHoursTable.tsx';
import { useBuilding, useBuildingCrumbs, useFloors } from '../../buildings/index.ts';
import type { ConsumptionEmpty } from '../../consumption/index.ts';
import { useFlowboxes } from '../api/list-flowboxes.ts';
import { useZone, type ZoneRef } from '../api/get-zone.ts';
import { Badge } from '../../../components/Badge.tsx';
import { ZoneChecklist } from './ZoneChecklist.tsx';
import { useZoneReadiness, ZONE_SECTION } from './useZoneReadiness.ts';
import { PriceTiersCard } from './PriceTiersCard.tsx';
import { useZoneRef } from './useZoneRef.ts';

/** What a zone's page knows, for the cards of other features it shows. */
export type ZoneOverviewContext = {
  zoneRef: ZoneRef;
  zone: Zone;
  building?: Building;
  floors?: readonly Floor[];
  /** What the consumption graph says when no water was used. */
  consumptionEmpty?: ConsumptionEmpty;
};

/**
 * The cards other features lend a zone's page, composed by the app (app/routes/zones.tsx): the page
 * decides where each goes and who sees it.
 */
export type ZoneOverviewWidgets = Record<
  | 'automationBanner'
  | 'valve'
  | 'openAlerts'
  | 'consumption'
  | 'leaks'
  | 'automation'
  | 'schedules'
  | 'flowboxes',
  (context: ZoneOverviewContext) => ReactNode
> & { comingPrice: (terms: PriceTerms) => ReactNode };

function ZoneOverview({ widgets, ...context }: ZoneOverviewContext & { widgets: ZoneOverviewWidgets }) {
  const { zoneRef, zone, building, floors } = context;
  const { t, language } = useLanguage();
  const user = useUser();
  const navigate = useNavigate();
  const toast = useToast();
  const [deleting, setDeleting] = useState(false);
  const remove = useDeleteZone(zoneRef);
  const crumbs = useBuildingCrumbs(zoneRef.customerId, zoneRef.siteId, zoneRef.buildingId);
  const { customerId, siteId, buildingId } = zoneRef;
  const manages = canDo(user, ANY_ROLE, 'buildings.manage');
  // docs/permissions.md: a plumber reads no billing, consumption, price or activity log (issue 18).
  const manager = hasRole(user, ANY_ROLE);
  const onOff = (on: boolean) => (on ? <Badge tone="warn">{t('zones.on')}</Badge> : t('zones.off'));
  const notSet = (value: number | null) => value ?? t('zones.not_set');
  const { subscribed, pairedFlowboxes } = useZoneReadiness(zoneRef);
  // The checklist's links lead to a section of this page (#flowboxes, #automatic-closing).
  const { hash } = useLocation();
  useEffect(() => {
    if (hash) document.getElementById(hash.slice(1))?.scrollIntoView();
  }, [hash]);
  const none = (text: string) => <span className="text-slate-500 dark:text-slate-400">{text}</span>;
  const floor = zone.floor_id ? floors?.find((f) => f.id === zone.floor_id)?.label : t('zones.no_floor');
  const origin = (own: boolean) => (
    <Badge tone={own ? 'accent' : 'neutral'}>
      {own ? t('zones.origin_zone') : t('zones.origin_building')}
    </Badge>
  );

  return (
    <>
      <PageHeader
        title={zone.name}
        description={t('zones.overview')}
        breadcrumbs={crumbs}
        actions={
          manages && (
            <>
              <ButtonLink
                to={paths.zoneEdit.getHref(customerId, siteId, buildingId, zone.id)}
                variant="secondary"
              >
                {t('common.edit')}
              </ButtonLink>
              <Button variant="danger" onClick={() => setDeleting(true)}>
                {t('common.delete')}
              </Button>
            </>
          )
        }
      />
      {widgets.automationBanner(context)}
      <div className="space-y-6">
        {manager && <ZoneChecklist zoneRef={zoneRef} />}
        <Card title={t('zones.section_general')}>
          <DescriptionList
            items={[
              {
                label: t('zones.profile'),
                value: (
                  <>
                    <span className="font-medium">{t(`zones.profile.${zone.profile}`)}</span>
                    <span className="block text-xs text-slate-500 dark:text-slate-400">
                      {t('zones.profile_hint', {
                        use: t(`zones.profile_use.${zone.profile}`),
                        pattern: t(`zones.profile_pattern.${zone.profile}`),
                      })}
                    </span>
                  </>
                ),
              },
              {
                label: t('zones.service_level'),
                value: (
                  <span className="flex flex-wrap items-center gap-2">
                    {subscribed === false && manager ? (
                      none(t('zones.no_subscription'))
                    ) : (
                      <Badge tone={zone.service_level === 'premium' ? 'accent' : 'neutral'}>
                        {t(`zones.service_level.${zone.service_level}`)}
                      </Badge>
                    )}
                    {/* spec §5: the subscription is chosen before pairing; it sets the service level. */}
                    {manager && (
                      <Link
                        to={paths.zoneSubscription.getHref(customerId, siteId, buildingId, zone.id)}
                        className="text-sm text-sky-700 hover:underline dark:text-sky-400"
                      >
                        {t('zones.subscription_link')}
                      </Link>
                    )}
                  </span>
                ),
              },
              { label: t('zones.floor'), value: floor ?? '…' },
              {
                label: t('zones.valve_state'),
                // No device, no valve: its state would be made up.
                value:
                  pairedFlowboxes?.length === 0 ? (
                    none(t('zones.no_flowbox'))
                  ) : (
                    <Badge tone={zone.valve_state === 'opened' ? 'good' : 'warn'}>
                      {t(`zones.valve_state.${zone.valve_state}`)}
                    </Badge>
                  ),
              },
              { label: t('fields.created_at'), value: formatDate(zone.created_at, language) },
            ]}
          />
        </Card>
        {widgets.valve(context)}
        {widgets.openAlerts(context)}
        {manager && widgets.consumption(context)}
        {manager && widgets.leaks(context)}
        <div id={ZONE_SECTION.automation} className="scroll-mt-20">
          {widgets.automation(context)}
        </div>
        {/* Its notice when not authorised tells a manager to change the zone's settings: not a plumber's. */}
        {(manager || zone.scheduled_closing_authorised) && widgets.schedules(context)}
        <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-2">
          <Card
            title={t('zones.water_points')}
            actions={
              manages && (
                <ButtonLink
                  to={paths.waterPointAdd.getHref(customerId, siteId, buildingId, zone.id)}
                  variant="secondary"
                >
                  {t('water_points.add')}
                </ButtonLink>
              )
            }
          >
            {/* One fact: the water points recorded; the number declared in the settings only where it differs. */}
            <p className="text-sm" data-testid="water-points-fact">
              {zone.water_point_count === 0
                ? t('zones.no_water_points')
                : t('zones.water_point_count', { count: zone.water_point_count })}
              {zone.water_point_number !== null && zone.water_point_number !== zone.water_point_count && (
                <span className="block text-slate-600 dark:text-slate-400">
                  {t('zones.water_points_declared', { declared: zone.water_point_number })}
                </span>
              )}
            </p>
            <Link
              to={paths.waterPoints.getHref(customerId, siteId, buildingId, zone.id)}
              className="mt-2 inline-block text-sm font-medium text-sky-700 hover:underline dark:text-sky-400"
            >
              {t('zones.see_water_points')}
            </Link>
          </Card>
          <div id={ZONE_SECTION.flowboxes} className="scroll-mt-20">
            {widgets.flowboxes(context)}
          </div>
        </div>
        <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-2">
          <Card title={t('zones.section_device')}>
            <DescriptionList
              items={[
                { label: t('zones.flowbox_model'), value: t(`zones.flowbox_model.${zone.flowbox_model}`) },
                {
                  label: t('zones.water_temperature'),
                  value: t(`zones.water_temperature.${zone.water_temperature}`),
                },
                { label: t('zones.occupants'), value: notSet(zone.occupants) },
              ]}
            />
          </Card>
          <Card title={t('zones.section_modes')}>
            <DescriptionList
              items={[
                {
                  label: t('zones.scheduled_closing_authorised'),
                  value: zone.scheduled_closing_authorised
                    ? t('zones.authorised')
                    : t('zones.not_authorised'),
                },
                { label: t('zones.leak_detection_mode'), value: onOff(zone.leak_detection_mode) },
                { label: t('zones.maintenance_mode'), value: onOff(zone.maintenance_mode) },
              ]}
            />
          </Card>
          <Card title={t('zones.section_hours')} actions={origin(zone.opening_hours !== null)}>
            {zone.effective_opening_hours ? (
              <OpeningHoursTable
                hours={zone.effective_opening_hours}
                firstDayOfWeek={building?.first_day_of_week}
                weekend={building?.weekend}
              />
            ) : (
              <p className="text-sm text-slate-600 dark:text-slate-400">{t('zones.no_hours')}</p>
            )}
          </Card>
          {manager && <PriceTiersCard zoneRef={zoneRef} comingPrice={widgets.comingPrice} />}
        </div>
        {manager && (
          <SectionLink
            to={paths.zoneEvents.getHref(customerId, siteId, buildingId, zone.id)}
            title={t('events.title')}
            detail={t('events.description_zone')}
          />
        )}
      </div>
      {manages && (
        <ConfirmDeleteDialog
          open={deleting}
          onClose={() => setDeleting(false)}
          name={zone.name}
          consequence={
            zone.water_point_count === 0
              ? t('zones.delete_consequence_empty')
              : t('zones.delete_consequence', { count: zone.water_point_count })
          }
          onConfirm={async (confirmName) => {
            await remove.mutateAsync(confirmName);
            setDeleting(false);
            toast.success(t('zones.toast_deleted'));
            await navigate(paths.building.getHref(customerId, siteId, buildingId));
          }}
        />
      )}
    </>
  );
}

/**
 * What the consumption graph says when no water was used (issue 15): the zone's flowbox as it is
 * (connected, disconnected, never connected, still pairing), or, with none, how to pair one.
 */
function useConsumptionEmpty(zoneRef: ZoneRef): ConsumptionEmpty | undefined {
  const { t, language } = useLanguage();
  const flowboxes = useFlowboxes(zoneRef);
  const items = flowboxes.data?.items;
  if (!items || items.length === 0) return undefined;
  const describe = (f: Flowbox) => {
    const since = formatDateTime(f.connection_since, language);
    if (f.pairing_state !== 'ready') return t('consumption.no_readings_pairing', { serial: f.serial });
    if (f.connection === 'connected') return t('consumption.no_water_connected', { serial: f.serial, since });
    if (f.connection === 'disconnected')
      return t('consumption.no_readings_disconnected', { serial: f.serial, since });
    return t('consumption.no_readings_never', { serial: f.serial });
  };
  return {
    // "No water used" only when a connected flowbox says so; otherwise nothing was measured.
    title: items.some((f) => f.pairing_state === 'ready' && f.connection === 'connected')
      ? t('consumption.no_water_title')
      : t('consumption.empty'),
    hint: (
      <>
        {items.map((f) => (
          <span key={f.id} className="block">
            {describe(f)}
          </span>
        ))}
      </>
    ),
  };
}

export function ZoneOverviewPage({ widgets }: { widgets: ZoneOverviewWidgets }) {
  const ref = useZoneRef();
  const zone = useZone(ref);
  // The building orders the week and the floors name the zone's floor; the zone shows without them.
  const building = useBuilding(ref.customerId, ref.siteId, ref.buildingId);
  const floors = useFloors(ref.customerId, ref.siteId, ref.buildingId);
  const consumptionEmpty = useConsumptionEmpty(ref);
  return (
    <QueryBoundary query={zone}>
      {(data) => (
        <ZoneOverview
          widgets={widgets}
          zoneRef={ref}
          zone={data}
          building={building.data}
          floors={floors.data?.items}
          consumptionEmpty={consumptionEmpty}
        />
      )}
    </QueryBoundary>
  );
}
