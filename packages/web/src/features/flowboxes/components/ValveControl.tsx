import type { Flowbox, FlowboxCommand } from '@flowbox/shared';
import { useId, useState } from 'react';
import { Alert } from '../../../components/Alert.tsx';
import { errorMessage } from '../../../lib/forms.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { Badge } from '../../../components/Badge.tsx';
import { useFloodingAlertCount } from '../api/flooding-alerts.ts';
import type { FlowboxRef } from '../api/get-flowbox.ts';
import { useSendCommand } from '../api/send-command.ts';
import { offeredCommands, pendingCommand, switchState } from '../format.ts';
import { CommandButton } from './CommandButton.tsx';
import { ConfirmActionDialog } from '../../../components/ConfirmActionDialog.tsx';
import { PendingCommand } from './PendingCommand.tsx';

type ValveCommand = 'valve_open' | 'valve_close';
const isValveCommand = (name: string): name is ValveCommand =>
  name === 'valve_open' || name === 'valve_close';

type ValveControlProps = {
  flowboxRef: FlowboxRef;
  flowbox: Flowbox;
  /** The flowbox's latest commands, newest first (kept live). */
  commands: readonly FlowboxCommand[];
  /** Why the valve cannot be commanded now (lock, permission, pairing), or null. */
  disabledReason: string | null;
  /** The id of that reason where the page already shows it; without it the control shows it. */
  reasonId?: string;
  /** Show the valve's state too (where no state card is beside it). */
  showState?: boolean;
  /** For those who may not control valves: the state and the command on its way, no action. */
  readOnly?: boolean;
};

/**
 * The valve as the device reports it and the one action that changes it (both when the state is
 * unknown), each confirmed: closing cuts people's water, opening on a leak floods. A command on its
 * way is shown with its state instead of the actions until the device answers.
 */
export function ValveControl({
  flowboxRef,
  flowbox,
  commands,
  disabledReason,
  reasonId,
  showState = false,
  readOnly = false,
}: ValveControlProps) {
  const { t } = useLanguage();
  const send = useSendCommand(flowboxRef);
  const ownReasonId = useId();
  const floodingAlerts = useFloodingAlertCount(flowbox.zone_id);
  const [confirming, setConfirming] = useState<ValveCommand | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const state = switchState(flowbox, 'valve');
  const pending = pendingCommand(commands, 'valve');

  async function issue(name: ValveCommand) {
    setFailure(null);
    try {
      await send.mutateAsync({ name });
    } catch (error) {
      setFailure(errorMessage(error));
    }
  }

  const openText =
    floodingAlerts > 0
      ? t('commands.confirm_open_alert', { count: floodingAlerts })
      : t('commands.confirm_open_text');
  return (
    <div className="space-y-3">
      {showState && (
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <span className="font-medium">{t('flowbox.valve')}</span>
          {flowbox.valve ? (
            <span data-testid="flowbox-valve" data-valve={flowbox.valve}>
              <Badge tone={flowbox.valve === 'opened' ? 'good' : 'warn'}>
                {t(`zones.valve_state.${flowbox.valve}`)}
              </Badge>
            </span>
          ) : (
            <span className="text-slate-600 dark:text-slate-400">{t('flowbox.unknown')}</span>
          )}
        </p>
      )}
      {state === null && !pending && !readOnly && (
        <p className="text-sm text-amber-800 dark:text-amber-300">{t('commands.valve_unknown')}</p>
      )}
      {disabledReason && !reasonId && !readOnly && (
        <p id={ownReasonId} className="text-sm text-slate-600 dark:text-slate-400">
          {disabledReason}
        </p>
      )}
      <PendingCommand name="valve" command={pending} />
      {!pending && !readOnly && (
        <div className="flex flex-wrap gap-2">
          {offeredCommands('valve', state)
            .filter(isValveCommand)
            .map((name) => (
              <CommandButton
                key={name}
                name={name}
                variant={name === 'valve_close' ? 'danger' : 'secondary'}
                disabledReason={disabledReason}
                reasonId={reasonId ?? ownReasonId}
                loading={send.isPending && send.variables.name === name}
                onClick={() => setConfirming(name)}
              />
            ))}
        </div>
      )}
      {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
      <ConfirmActionDialog
        open={confirming !== null}
        title={
          confirming === 'valve_open' ? t('commands.confirm_open_title') : t('commands.confirm_close_title')
        }
        text={confirming === 'valve_open' ? openText : t('commands.confirm_close_text')}
        confirmLabel={confirming ? t(`commands.${confirming}`) : t('commands.confirm')}
        onClose={() => setConfirming(null)}
        onConfirm={async () => {
          if (confirming) await issue(confirming);
          setConfirming(null);
        }}
      />
    </div>
  );
}
