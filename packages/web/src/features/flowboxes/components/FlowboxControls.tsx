import {
  LEAK_DETECTION_TIMEOUT_MAX_MIN,
  type Flowbox,
  type FlowboxCommand,
  type FlowboxCommandCreateInput,
  type FlowboxCommandName,
} from '@flowbox/shared';
import { useId, useState, type ReactNode } from 'react';
import { Alert } from '../../../components/Alert.tsx';
import { Card } from '../../../components/Card.tsx';
import { INPUT_CLASS } from '../../../components/TextField.tsx';
import { errorMessage } from '../../../lib/forms.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import type { FlowboxRef } from '../api/get-flowbox.ts';
import { useSendCommand } from '../api/send-command.ts';
import { offeredCommands, pendingCommand, switchState, type SwitchName } from '../format.ts';
import { CommandButton } from './CommandButton.tsx';
import { CommandStatusBadge } from './CommandStatus.tsx';
import { ConfirmActionDialog } from '../../../components/ConfirmActionDialog.tsx';
import { PendingCommand } from './PendingCommand.tsx';
import { ValveControl } from './ValveControl.tsx';

/** Choices for the leak-detection timeout (spec §4 timeout event), within the server's bound. */
const LEAK_TIMEOUTS_MIN = [30, 60, 120, 240, 480, 720, LEAK_DETECTION_TIMEOUT_MAX_MIN];
const DEFAULT_LEAK_TIMEOUT_MIN = 60;

type FlowboxControlsProps = {
  flowboxRef: FlowboxRef;
  flowbox: Flowbox;
  /** The flowbox's latest commands, newest first (kept live). */
  commands: readonly FlowboxCommand[];
  /** Why no command can be sent now (lock, permission, pairing), or null. */
  disabledReason: string | null;
  /** A plumber's controls (docs/permissions.md): maintenance mode only, no valve, leak detection or reboot. */
  maintenanceOnly?: boolean;
};

/**
 * The commands of issue #4, each offered in the direction that changes the device's state, with
 * the command on its way shown until the device answers (issue 15).
 */
export function FlowboxControls({
  flowboxRef,
  flowbox,
  commands,
  disabledReason,
  maintenanceOnly = false,
}: FlowboxControlsProps) {
  const { t } = useLanguage();
  const send = useSendCommand(flowboxRef);
  const reasonId = useId();
  const headingId = useId();
  const timeoutId = useId();
  const [rebooting, setRebooting] = useState(false);
  const [leakTimeout, setLeakTimeout] = useState(DEFAULT_LEAK_TIMEOUT_MIN);
  const [failure, setFailure] = useState<string | null>(null);
  const latest = commands[0];

  async function issue(input: FlowboxCommandCreateInput) {
    setFailure(null);
    try {
      await send.mutateAsync(input);
    } catch (error) {
      setFailure(errorMessage(error));
    }
  }

  const button = (name: FlowboxCommandName, onClick: () => void, variant?: 'danger') => (
    <CommandButton
      key={name}
      name={name}
      variant={variant}
      disabledReason={disabledReason}
      reasonId={reasonId}
      loading={send.isPending && send.variables.name === name}
      onClick={onClick}
    />
  );
  const modeSwitch = (name: Exclude<SwitchName, 'valve'>, extra?: ReactNode) => {
    const pending = pendingCommand(commands, name);
    const offered = offeredCommands(name, switchState(flowbox, name));
    return (
      <div className="w-full space-y-2">
        <PendingCommand name={name} command={pending} />
        {!pending && (
          <div className="flex flex-wrap items-center gap-2">
            {offered.includes('leak_detection_on') && extra}
            {offered.map((command) =>
              button(
                command,
                () =>
                  void issue(
                    command === 'leak_detection_on'
                      ? { name: command, timeout_minutes: leakTimeout }
                      : { name: command },
                  ),
              ),
            )}
          </div>
        )}
      </div>
    );
  };
  const group = (title: string, children: ReactNode) => (
    <fieldset className="space-y-2">
      <legend className="mb-2 text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">
        {title}
      </legend>
      <div className="flex flex-wrap items-end gap-2">{children}</div>
    </fieldset>
  );
  const duration = (minutes: number) =>
    minutes < 60 ? t('commands.minutes', { count: minutes }) : t('commands.hours', { count: minutes / 60 });

  return (
    <Card title={t('flowbox.section_controls')} headingId={headingId}>
      <div className="space-y-5">
        {disabledReason && (
          <p id={reasonId} className="text-sm text-slate-600 dark:text-slate-400">
            {disabledReason}
          </p>
        )}
        {!disabledReason && flowbox.connection !== 'connected' && (
          <p className="text-sm text-amber-800 dark:text-amber-300">{t('commands.disconnected')}</p>
        )}
        {maintenanceOnly && (
          <p className="text-sm text-slate-600 dark:text-slate-400">{t('plumberweb.controls_hint')}</p>
        )}
        {maintenanceOnly && group(t('commands.modes_group'), modeSwitch('maintenance'))}
        {!maintenanceOnly &&
          group(
            t('commands.valve_group'),
            <ValveControl
              flowboxRef={flowboxRef}
              flowbox={flowbox}
              commands={commands}
              disabledReason={disabledReason}
              reasonId={reasonId}
            />,
          )}
        {!maintenanceOnly &&
          group(
            t('commands.modes_group'),
            <>
              {modeSwitch('maintenance')}
              {modeSwitch(
                'leak_detection',
                <>
                  <label htmlFor={timeoutId} className="text-sm text-slate-600 dark:text-slate-400">
                    {t('commands.leak_timeout')}
                  </label>
                  <select
                    id={timeoutId}
                    value={leakTimeout}
                    disabled={disabledReason !== null}
                    aria-describedby={disabledReason ? reasonId : undefined}
                    onChange={(event) => setLeakTimeout(Number(event.target.value))}
                    className={`${INPUT_CLASS} w-auto`}
                  >
                    {LEAK_TIMEOUTS_MIN.map((minutes) => (
                      <option key={minutes} value={minutes}>
                        {duration(minutes)}
                      </option>
                    ))}
                  </select>
                </>,
              )}
            </>,
          )}
        {!maintenanceOnly &&
          group(
            t('commands.device_group'),
            button('reboot', () => setRebooting(true), 'danger'),
          )}
        {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
        <p role="status" className="text-sm" data-testid="last-command">
          {latest && (
            <span className="inline-flex flex-wrap items-center gap-2">
              {t('commands.last', { name: t(`commands.${latest.name}`) })}
              <CommandStatusBadge command={latest} />
            </span>
          )}
        </p>
      </div>
      {/* Rebooting stops measuring for a while: confirmed first. */}
      <ConfirmActionDialog
        open={rebooting}
        title={t('commands.confirm_reboot_title')}
        text={t('commands.confirm_reboot_text')}
        confirmLabel={t('commands.reboot')}
        onClose={() => setRebooting(false)}
        onConfirm={async () => {
          await issue({ name: 'reboot' });
          setRebooting(false);
        }}
      />
    </Card>
  );
}
