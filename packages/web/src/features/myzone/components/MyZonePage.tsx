import { ROLES, type Alert, type Zone, type ZoneSummary } from '@flowbox/shared';
import type { ReactNode } from 'react';
import { Navigate, useParams } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { PageRefused, QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { canDo, hasRole, useUser } from '../../auth/index.ts';
import type { ConsumptionEmpty } from '../../consumption/index.ts';
import { useCustomerZones } from '../../dashboard/index.ts';
import { useFlowboxes, useZone, type ZoneRef } from '../../zones/index.ts';
import { MyLeakDetectionCard } from './MyLeakDetectionCard.tsx';
import { MyTodayCard } from './MyTodayCard.tsx';
import { MyValveCard, type ValveControlOf } from './MyValveCard.tsx';
import { MyZoneAlertBanner } from './MyZoneAlertBanner.tsx';

const END_USER = [ROLES.end_user] as const;

/**
 * What other features lend an end user's zone home, composed by the app (app/routes/myzone.tsx):
 * the valve's buttons, the consumption graph, the scheduled closings, away mode and "Was this you?".
 */
export type MyZoneWidgets = {
  valveControl: ValveControlOf;
  consumption: (zoneRef: ZoneRef, zone: Zone, empty: ConsumptionEmpty) => ReactNode;
  schedules: (zoneRef: ZoneRef, zone: Zone) => ReactNode;
  /** Away mode (issue 33): its period and form (closing on flow offered with `valves.control`). */
  awayMode: (zoneRef: ZoneRef) => ReactNode;
  /** "Was this you?" on the alert told first (issue 33). */
  wasThisYou: (alert: Alert) => ReactNode;
};

/**
 * An end user's zone, phone first (issue 18), in the order that matters when the leak alert
 * arrives: the alert, "Was this you?" and what to do, the water (since when and by whom it is off,
 * and its buttons, if granted), away mode (issue 33), today's figures, the graph of §9; the
 * scheduled closings and the leak-detection mode only with their permissions.
 */
function MyZoneHome({
  zoneRef,
  zone,
  summary,
  widgets,
}: {
  zoneRef: ZoneRef;
  zone: Zone;
  summary: ZoneSummary;
  widgets: MyZoneWidgets;
}) {
  const { t } = useLanguage();
  const user = useUser();
  const mayControl = canDo(user, END_USER, 'valves.control');
  const maySchedule = canDo(user, END_USER, 'schedules.manage');
  const paired = useFlowboxes(zoneRef).data?.items.some((item) => item.pairing_state === 'ready') ?? true;
  // One column, readable on a desktop too: the page is a phone's, not a manager's dashboard.
  return (
    <div className="mx-auto max-w-3xl">
      <p className="text-xs font-semibold tracking-wide text-sky-800 uppercase dark:text-sky-300">
        {t('myzone.kicker')}
      </p>
      <PageHeader
        compact
        title={zone.name}
        description={
          summary.floor_label
            ? t('myzone.where_floor', {
                building: summary.building_name,
                floor: summary.floor_label,
                site: summary.site_name,
              })
            : t('myzone.where', { building: summary.building_name, site: summary.site_name })
        }
      />
      <div className="space-y-3 sm:space-y-6" data-testid="myzone-home">
        <MyZoneAlertBanner zoneId={zone.id} wasThisYou={widgets.wasThisYou} />
        <MyValveCard
          zoneRef={zoneRef}
          zone={zone}
          mayControl={mayControl}
          valveControl={widgets.valveControl}
        />
        {/* Issue 33: within the phone's first screen with the alert and the water. */}
        {widgets.awayMode(zoneRef)}
        <MyTodayCard zoneRef={zoneRef} />
        {widgets.consumption(zoneRef, zone, {
          title: t('myzone.graph_empty'),
          hint: paired ? t('myzone.graph_empty_hint') : t('myzone.graph_empty_no_device'),
        })}
        {/* With the permission, its scheduled closings: the forms lead back here (schedules useWayBack). */}
        {maySchedule && widgets.schedules(zoneRef, zone)}
        {mayControl && <MyLeakDetectionCard zoneRef={zoneRef} zone={zone} />}
      </div>
    </div>
  );
}

function EndUserZone({ summary, widgets }: { summary: ZoneSummary; widgets: MyZoneWidgets }) {
  const zoneRef: ZoneRef = {
    customerId: summary.customer_id,
    siteId: summary.site_id,
    buildingId: summary.building_id,
    zoneId: summary.id,
  };
  const zone = useZone(zoneRef);
  return (
    <QueryBoundary query={zone}>
      {(data) => <MyZoneHome zoneRef={zoneRef} zone={data} summary={summary} widgets={widgets} />}
    </QueryBoundary>
  );
}

/**
 * The zones the user may see in its customer, and the one asked for among them: an end user's
 * list holds its own zones only, so a zone outside it is refused (the route's 403 page).
 */
function FindZone({
  customerId,
  zoneId,
  children,
}: {
  customerId: string;
  zoneId: string;
  children: (summary: ZoneSummary | undefined) => ReactNode;
}) {
  const zones = useCustomerZones(customerId);
  return (
    <QueryBoundary query={zones}>{(data) => children(data.items.find((z) => z.id === zoneId))}</QueryBoundary>
  );
}

/** A zone not among the end user's: the route's 403 page, as a refused API call would show. */
function NotYoursWith({ text }: { text: string }): never {
  throw new PageRefused('forbidden', text);
}

export function MyZonePage({ widgets }: { widgets: MyZoneWidgets }) {
  const { zoneId = '' } = useParams();
  const user = useUser();
  const { t } = useLanguage();
  // A manager has the whole zone page: sent there (or home, where no customer names the zone).
  if (!hasRole(user, END_USER)) {
    if (!user.customer_id) return <Navigate to={paths.home.getHref()} replace />;
    return (
      <FindZone customerId={user.customer_id} zoneId={zoneId}>
        {(summary) => (
          <Navigate
            to={
              summary
                ? paths.zone.getHref(summary.customer_id, summary.site_id, summary.building_id, summary.id)
                : paths.home.getHref()
            }
            replace
          />
        )}
      </FindZone>
    );
  }
  if (!user.customer_id) return <NotYoursWith text={t('myzone.not_yours')} />;
  return (
    <FindZone customerId={user.customer_id} zoneId={zoneId}>
      {(summary) =>
        summary ? (
          <EndUserZone summary={summary} widgets={widgets} />
        ) : (
          <NotYoursWith text={t('myzone.not_yours')} />
        )
      }
    </FindZone>
  );
}
