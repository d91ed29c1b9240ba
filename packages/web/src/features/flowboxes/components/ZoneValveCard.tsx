import type { Flowbox } from '@flowbox/shared';
import { useId } from 'react';
import { Card } from '../../../components/Card.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { ANY_ROLE, canDo, useUser } from '../../auth/index.ts';
import { useAutomation } from '../../automation/index.ts';
import type { ZoneRef } from '../../zones/index.ts';
import type { FlowboxRef } from '../api/get-flowbox.ts';
import { useCommands } from '../api/list-commands.ts';
import { useFlowboxes } from '../../zones/index.ts';
import { ValveControl } from './ValveControl.tsx';

/**
 * The zone's valve on its overview (issue 15: the exit of automatic closing promises "the valve
 * stays closed until you open it"): the paired flowbox's valve as it reports it, and for those who
 * may control valves the same state-aware control as the flowbox page. Nothing before pairing.
 */
export function ZoneValveCard({ zoneRef }: { zoneRef: ZoneRef }) {
  const { t } = useLanguage();
  const headingId = useId();
  const flowbox = useFlowboxes(zoneRef).data?.items.find((item) => item.pairing_state === 'ready');
  if (!flowbox) return null;
  return (
    <Card title={t('commands.valve_group')} headingId={headingId}>
      <PairedValve flowboxRef={{ ...zoneRef, flowboxId: flowbox.id }} flowbox={flowbox} />
    </Card>
  );
}

function PairedValve({ flowboxRef, flowbox }: { flowboxRef: FlowboxRef; flowbox: Flowbox }) {
  const { t } = useLanguage();
  const user = useUser();
  const commands = useCommands(flowboxRef).data?.items ?? [];
  const locked = useAutomation(flowboxRef).data?.locked === true;
  const mayControl = canDo(user, ANY_ROLE, 'valves.control');
  return (
    <ValveControl
      flowboxRef={flowboxRef}
      flowbox={flowbox}
      commands={commands}
      disabledReason={locked ? t('commands.locked') : null}
      showState
      readOnly={!mayControl}
    />
  );
}
