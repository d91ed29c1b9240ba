import type { Flowbox } from '@flowbox/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useId, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/Button.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { SectionLink } from '../../../components/SectionLink.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useLiveMessages } from '../../../lib/live.ts';
import { paths } from '../../../paths.ts';
import { useAutomation } from '../../automation/index.ts';
import { ANY_ROLE, canDo, hasRole, MANAGER_OR_PLUMBER, useUser } from '../../auth/index.ts';
import { useFloors } from '../../buildings/index.ts';
import { useZone, useZoneCrumbs } from '../../zones/index.ts';
import { useDetachFlowbox } from '../api/detach-flowbox.ts';
import { flowboxInfoKey, useFlowbox, type FlowboxRef } from '../api/get-flowbox.ts';
import { useCommands } from '../api/list-commands.ts';
import { useUnpairFlowbox } from '../api/unpair-flowbox.ts';
import { CommandsCard } from './CommandsCard.tsx';
import { ConfirmActionDialog } from '../../../components/ConfirmActionDialog.tsx';
import { DetachDialog } from './DetachDialog.tsx';
import { FlowboxAutotestCard } from './FlowboxAutotestCard.tsx';
import { ConnectionBadge, PairingBadge } from './FlowboxBadges.tsx';
import { FlowboxControls } from './FlowboxControls.tsx';
import { FlowboxInformationCard } from './FlowboxInformationCard.tsx';
import { FlowboxStateCard } from './FlowboxStateCard.tsx';
import { useFlowboxRef } from './useFlowboxRef.ts';

const REMOVED = ['flowbox_removed'] as const;

/** What a flowbox's page knows, for the cards of other features it shows. */
export type FlowboxDetailContext = { flowboxRef: FlowboxRef; flowbox: Flowbox };

/**
 * What other features lend a flowbox's page, composed by the app (app/routes/flowboxes.tsx): the
 * banner of a zone held by automatic closing, the firmware card and the flowbox's consumption. The
 * page decides where each goes and who sees it.
 */
export type FlowboxDetailWidgets = {
  automationBanner: (context: FlowboxDetailContext, zoneName: string) => ReactNode;
  firmware: (context: FlowboxDetailContext) => ReactNode;
  consumption: (context: FlowboxDetailContext) => ReactNode;
};

function FlowboxDetail({
  widgets,
  flowboxRef,
  flowbox,
}: FlowboxDetailContext & { widgets: FlowboxDetailWidgets }) {
  const context = { flowboxRef, flowbox };
  const { t } = useLanguage();
  const user = useUser();
  const toast = useToast();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { customerId, siteId, buildingId, zoneId } = flowboxRef;
  const zoneHref = paths.zone.getHref(customerId, siteId, buildingId, zoneId);
  const crumbs = [
    ...useZoneCrumbs(flowboxRef),
    { label: flowbox.serial, to: paths.flowbox.getHref(customerId, siteId, buildingId, zoneId, flowbox.id) },
  ];
  const commands = useCommands(flowboxRef).data?.items ?? [];
  const floors = useFloors(customerId, siteId, buildingId).data?.items;
  const [removing, setRemoving] = useState<'unpair' | 'detach' | null>(null);
  const unpair = useUnpairFlowbox(flowboxRef);
  const detach = useDetachFlowbox(flowboxRef);
  // docs/permissions.md: a plumber never unpairs or detaches; it sends autotests and maintenance
  // mode only, and reads no consumption or activity log (issue 18).
  const mayPair = canDo(user, ANY_ROLE, 'flowboxes.pair');
  const mayControl = canDo(user, MANAGER_OR_PLUMBER, 'valves.control');
  const manager = hasRole(user, ANY_ROLE);
  const mayUpdateFirmware = canDo(user, ANY_ROLE, 'firmware.update');
  // spec §4: while automatic closing holds the zone the server refuses every change under it but
  // the exit, so every control here says so, and the banner offers the exit.
  const locked = useAutomation(flowboxRef).data?.locked === true;
  const zone = useZone(flowboxRef).data;
  const zoneName = zone?.name;
  const lockReasonId = useId();
  const lockReason = locked ? t('commands.locked') : null;
  const controlBlocked = !mayControl
    ? t('commands.denied')
    : flowbox.pairing_state !== 'ready'
      ? t('commands.not_ready')
      : lockReason;

  // Set once this page removes the flowbox itself, so its own removal is not announced twice.
  const leaving = useRef(false);
  const leave = useCallback(
    async (message: string) => {
      leaving.current = true;
      toast.success(message);
      await navigate(zoneHref);
    },
    [navigate, toast, zoneHref],
  );
  // Removed by someone else (or from the device's zone screen in another tab): nothing left to show.
  useLiveMessages(
    REMOVED,
    useCallback(
      (message) => {
        if (message.flowbox_id === flowbox.id && !leaving.current) void leave(t('flowbox.removed_elsewhere'));
      },
      [flowbox.id, leave, t],
    ),
    // A removal in a gap of the stream: the flowbox read again answers 404, and the page says so.
    useCallback(
      () => void queryClient.invalidateQueries({ queryKey: flowboxInfoKey(flowboxRef) }),
      [queryClient, flowboxRef],
    ),
  );

  return (
    <>
      <PageHeader
        title={flowbox.serial}
        description={
          <span className="flex flex-wrap items-center gap-2">
            {t('flowbox.overview')}
            <PairingBadge flowbox={flowbox} />
            <ConnectionBadge flowbox={flowbox} />
          </span>
        }
        breadcrumbs={crumbs}
        actions={
          mayPair && (
            <>
              {flowbox.pairing_state === 'ready' && (
                <Button
                  variant="secondary"
                  disabled={locked}
                  aria-describedby={locked ? lockReasonId : undefined}
                  onClick={() => setRemoving('unpair')}
                >
                  {t('flowbox.unpair')}
                </Button>
              )}
              <Button
                variant="danger"
                disabled={locked}
                aria-describedby={locked ? lockReasonId : undefined}
                onClick={() => setRemoving('detach')}
              >
                {t('flowbox.detach')}
              </Button>
            </>
          )
        }
      />
      {zoneName !== undefined && widgets.automationBanner(context, zoneName)}
      {lockReason && (
        <p id={lockReasonId} className="sr-only">
          {lockReason}
        </p>
      )}
      <div className="space-y-6">
        {flowbox.pairing_state !== 'ready' && (
          <p className="rounded-lg border border-sky-300 bg-sky-50 px-4 py-3 text-sm text-sky-900 dark:border-sky-800 dark:bg-sky-950/60 dark:text-sky-100">
            {t('flowbox.not_paired_yet')}
          </p>
        )}
        <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-2">
          <FlowboxStateCard flowbox={flowbox} />
          <FlowboxControls
            flowboxRef={flowboxRef}
            flowbox={flowbox}
            commands={commands}
            disabledReason={controlBlocked}
            maintenanceOnly={!manager}
          />
          <FlowboxInformationCard
            flowbox={flowbox}
            floor={
              // A flowbox placed on no floor of its own is on its zone's (issue 30: "Not on a floor"
              // while its zone was on the ground floor).
              floors?.find((floor) => floor.id === (flowbox.floor_id ?? zone?.floor_id))?.label
            }
          />
          <FlowboxAutotestCard
            flowboxRef={flowboxRef}
            latest={commands.find((command) => command.name === 'autotest')}
            disabledReason={controlBlocked}
          />
        </div>
        {mayUpdateFirmware && flowbox.pairing_state === 'ready' && widgets.firmware(context)}
        {manager && widgets.consumption(context)}
        <CommandsCard commands={commands} />
        {manager && (
          <SectionLink
            to={paths.zoneEvents.getHref(customerId, siteId, buildingId, zoneId)}
            title={t('events.title')}
            detail={t('flowbox.events_detail')}
          />
        )}
      </div>
      {mayPair && (
        <>
          <ConfirmActionDialog
            open={removing === 'unpair'}
            title={t('flowbox.unpair_title')}
            text={t('flowbox.unpair_text', { serial: flowbox.serial })}
            confirmLabel={t('flowbox.unpair')}
            onClose={() => setRemoving(null)}
            onConfirm={async () => {
              leaving.current = true;
              try {
                await unpair.mutateAsync();
                await leave(t('flowbox.toast_unpaired'));
              } catch (error) {
                leaving.current = false;
                toast.error(error instanceof Error ? error.message : String(error));
                setRemoving(null);
              }
            }}
          />
          <DetachDialog
            open={removing === 'detach'}
            serial={flowbox.serial}
            onClose={() => setRemoving(null)}
            onConfirm={async (confirmName) => {
              leaving.current = true;
              try {
                await detach.mutateAsync(confirmName);
              } catch (error) {
                leaving.current = false;
                throw error;
              }
              await leave(t('flowbox.toast_detached'));
            }}
          />
        </>
      )}
    </>
  );
}

/** spec §2 flowbox detail (…/zone/:zoneId/flowbox/:flowboxId): spec §3 fields and commands, live. */
export function FlowboxDetailPage({ widgets }: { widgets: FlowboxDetailWidgets }) {
  const ref = useFlowboxRef();
  const flowbox = useFlowbox(ref);
  return (
    <QueryBoundary query={flowbox}>
      {(data) => <FlowboxDetail flowboxRef={ref} flowbox={data} widgets={widgets} />}
    </QueryBoundary>
  );
}
