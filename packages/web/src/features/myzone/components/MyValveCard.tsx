import {
  displayLocalDateTime,
  type Flowbox,
  type FlowboxCommand,
  type Zone,
  type ZoneWater,
} from '@flowbox/shared';
import type { ReactNode } from 'react';
import { Card } from '../../../components/Card.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useAutomation } from '../../automation/index.ts';
import { useCommands } from '../../flowboxes/index.ts';
import { useFlowboxes, type ZoneRef } from '../../zones/index.ts';
import { useZoneWater } from '../api/get-zone-water.ts';

/** The valve's open and close buttons, as the flowbox's page has them (lent by the app). */
export type ValveControlOf = (props: {
  flowboxRef: ZoneRef & { flowboxId: string };
  flowbox: Flowbox;
  commands: readonly FlowboxCommand[];
  disabledReason: string | null;
  readOnly: boolean;
}) => ReactNode;

/** "Off since 12/20/2026 08:03, closed by automatic closing": who or what closed it, in the building's time. */
function ClosedSince({ water }: { water: ZoneWater }) {
  const { t, language } = useLanguage();
  if (water.valve !== 'closed' || !water.closed_since || !water.closed_by) return null;
  const since = displayLocalDateTime(Date.parse(water.closed_since), water.timezone, language);
  const by =
    water.closed_by === 'person'
      ? t('myzone.closed_by.person', { name: water.closed_by_name ?? '' })
      : t(`myzone.closed_by.${water.closed_by}`);
  return (
    <p
      className="text-sm text-slate-800 dark:text-slate-200"
      data-testid="myzone-closed-since"
      data-by={water.closed_by}
    >
      {t('myzone.closed_since', { date: since, by })}
    </p>
  );
}

/** The big line: water on or off, in the colours people read at a glance. */
function ValveHeadline({ state }: { state: 'opened' | 'closed' | null }) {
  const { t } = useLanguage();
  const text =
    state === 'opened'
      ? t('myzone.valve_open')
      : state === 'closed'
        ? t('myzone.valve_closed')
        : t('myzone.valve_unknown');
  const tone =
    state === 'opened'
      ? 'bg-emerald-100 text-emerald-900 dark:bg-emerald-900/50 dark:text-emerald-100'
      : state === 'closed'
        ? 'bg-amber-100 text-amber-950 dark:bg-amber-900/50 dark:text-amber-50'
        : 'bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-100';
  return (
    <p
      className={`rounded-lg px-3 py-1.5 text-xl font-bold ${tone}`}
      data-testid="myzone-valve"
      data-valve={state ?? 'unknown'}
    >
      {text}
    </p>
  );
}

function PairedValve({
  zoneRef,
  flowbox,
  mayControl,
  valveControl,
}: {
  zoneRef: ZoneRef;
  flowbox: Flowbox;
  mayControl: boolean;
  valveControl: ValveControlOf;
}) {
  const { t, language } = useLanguage();
  const flowboxRef = { ...zoneRef, flowboxId: flowbox.id };
  const commands = useCommands(flowboxRef).data?.items ?? [];
  const locked = useAutomation(zoneRef).data?.locked === true;
  const water = useZoneWater(zoneRef, flowbox.valve).data;
  return (
    <div className="space-y-2">
      {water && flowbox.valve === 'closed' && <ClosedSince water={water} />}
      {locked && (
        <p className="text-sm font-medium text-red-800 dark:text-red-300" data-testid="myzone-locked">
          {t('myzone.valve_locked')}
        </p>
      )}
      {flowbox.connection !== 'connected' && (
        <p className="text-sm text-amber-800 dark:text-amber-300" data-testid="myzone-offline">
          {flowbox.connection === 'never'
            ? t('myzone.offline_never')
            : t('myzone.offline', { since: formatDateTime(flowbox.connection_since, language) })}
        </p>
      )}
      {/* Large touch targets: the buttons fill the phone's width. */}
      <div
        className="[&_button]:min-h-12 [&_button]:w-full [&_button]:text-base sm:[&_button]:w-auto"
        data-testid="myzone-valve-action"
      >
        {valveControl({
          flowboxRef,
          flowbox,
          commands,
          disabledReason: locked ? t('commands.locked') : null,
          readOnly: !mayControl,
        })}
      </div>
      {!mayControl && <p className="text-sm text-slate-600 dark:text-slate-400">{t('myzone.no_control')}</p>}
    </div>
  );
}

/**
 * The zone's water: on, off, closed by automatic closing, the device offline; the open and close
 * buttons (each confirmed, ValveControl) only for an end user its manager lets control the valve.
 */
export function MyValveCard({
  zoneRef,
  zone,
  mayControl,
  valveControl,
}: {
  zoneRef: ZoneRef;
  zone: Zone;
  mayControl: boolean;
  valveControl: ValveControlOf;
}) {
  const { t } = useLanguage();
  const flowboxes = useFlowboxes(zoneRef);
  const flowbox = flowboxes.data?.items.find((item) => item.pairing_state === 'ready');
  // The state beside the card's title, so that its button follows at once (the first screen, issue 33).
  const headline = flowboxes.isPending ? (
    <ValveHeadline state={zone.valve_state} />
  ) : flowbox ? (
    <ValveHeadline state={flowbox.valve} />
  ) : null;
  return (
    <Card title={t('myzone.valve_title')} headingId="myzone-valve-title" actions={headline}>
      {flowboxes.isPending ? null : flowbox ? (
        <PairedValve
          zoneRef={zoneRef}
          flowbox={flowbox}
          mayControl={mayControl}
          valveControl={valveControl}
        />
      ) : (
        <p className="text-base text-slate-700 dark:text-slate-300" data-testid="myzone-no-device">
          {t('myzone.no_device')}
        </p>
      )}
    </Card>
  );
}
