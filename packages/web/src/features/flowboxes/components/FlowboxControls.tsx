import {
  LEAK_DETECTION_TIMEOUT_MAX_MIN,
  type Flowbox,
  type FlowboxCommand,
  type FlowboxCommandCreateInput,
  type FlowboxCommandName,
} from '@flowbox/shared';
import { useId, useState, type ReactNode } from 'react';
import { Alert } from '../../../components/Alert.tsx';
import { Button } from '../../../components/Button.tsx';
import { Card } from '../../../components/Card.tsx';
import { INPUT_CLASS } from '../../../components/TextField.tsx';
import { errorMessage } from '../../../lib/forms.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import type { FlowboxRef } from '../api/get-flowbox.ts';
import { useSendCommand } from '../api/send-command.ts';
import { CommandStatusBadge } from './CommandStatus.tsx';
import { ConfirmActionDialog } from './ConfirmActionDialog.tsx';

/** Choices for the leak-detection timeout (spec §4 timeout event), within the server's bound. */
const LEAK_TIMEOUTS_MIN = [30, 60, 120, 240, 480, 720, LEAK_DETECTION_TIMEOUT_MAX_MIN];
const DEFAULT_LEAK_TIMEOUT_MIN = 60;

/** Closing the valve cuts people's water; rebooting stops measuring: both are confirmed first. */
type Confirmable = Extract<FlowboxCommandName, 'valve_close' | 'reboot'>;

type FlowboxControlsProps = {
  flowboxRef: FlowboxRef;
  flowbox: Flowbox;
  latest: FlowboxCommand | undefined;
  /** `valves.control` (docs/permissions.md). */
  allowed: boolean;
};

/** The commands of issue #4; each one's state arrives live and shows in the status line. */
export function FlowboxControls({ flowboxRef, flowbox, latest, allowed }: FlowboxControlsProps) {
  const { t } = useLanguage();
  const send = useSendCommand(flowboxRef);
  const reasonId = useId();
  const timeoutId = useId();
  const [confirming, setConfirming] = useState<Confirmable | null>(null);
  const [leakTimeout, setLeakTimeout] = useState(DEFAULT_LEAK_TIMEOUT_MIN);
  const [failure, setFailure] = useState<string | null>(null);
  const ready = flowbox.pairing_state === 'ready';
  const disabledReason = !allowed ? t('commands.denied') : !ready ? t('commands.not_ready') : null;

  async function issue(input: FlowboxCommandCreateInput) {
    setFailure(null);
    try {
      await send.mutateAsync(input);
    } catch (error) {
      setFailure(errorMessage(error));
    }
  }

  const button = (name: FlowboxCommandName, variant: 'secondary' | 'danger' = 'secondary') => (
    <Button
      variant={variant}
      disabled={disabledReason !== null}
      aria-describedby={disabledReason ? reasonId : undefined}
      loading={send.isPending && send.variables.name === name}
      onClick={() => {
        if (name === 'valve_close' || name === 'reboot') setConfirming(name);
        else if (name === 'leak_detection_on') void issue({ name, timeout_minutes: leakTimeout });
        else void issue({ name });
      }}
    >
      {t(`commands.${name}`)}
    </Button>
  );
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
    <Card title={t('flowbox.section_controls')}>
      <div className="space-y-5">
        {disabledReason && (
          <p id={reasonId} className="text-sm text-slate-600 dark:text-slate-400">
            {disabledReason}
          </p>
        )}
        {!disabledReason && flowbox.connection !== 'connected' && (
          <p className="text-sm text-amber-800 dark:text-amber-300">{t('commands.disconnected')}</p>
        )}
        {group(
          t('commands.valve_group'),
          <>
            {button('valve_open')}
            {button('valve_close', 'danger')}
          </>,
        )}
        {group(
          t('commands.modes_group'),
          <>
            <div className="flex w-full flex-wrap gap-2">
              {button('maintenance_on')}
              {button('maintenance_off')}
            </div>
            <div className="flex w-full flex-wrap items-center gap-2">
              <label htmlFor={timeoutId} className="text-sm text-slate-600 dark:text-slate-400">
                {t('commands.leak_timeout')}
              </label>
              <select
                id={timeoutId}
                value={leakTimeout}
                disabled={disabledReason !== null}
                onChange={(event) => setLeakTimeout(Number(event.target.value))}
                className={`${INPUT_CLASS} w-auto`}
              >
                {LEAK_TIMEOUTS_MIN.map((minutes) => (
                  <option key={minutes} value={minutes}>
                    {duration(minutes)}
                  </option>
                ))}
              </select>
            </div>
            <div className="flex w-full flex-wrap gap-2">
              {button('leak_detection_on')}
              {button('leak_detection_off')}
            </div>
          </>,
        )}
        {group(t('commands.device_group'), button('reboot', 'danger'))}
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
      <ConfirmActionDialog
        open={confirming !== null}
        title={
          confirming === 'reboot' ? t('commands.confirm_reboot_title') : t('commands.confirm_close_title')
        }
        text={confirming === 'reboot' ? t('commands.confirm_reboot_text') : t('commands.confirm_close_text')}
        confirmLabel={confirming ? t(`commands.${confirming}`) : t('commands.confirm')}
        onClose={() => setConfirming(null)}
        onConfirm={async () => {
          if (confirming) await issue({ name: confirming });
          setConfirming(null);
        }}
      />
    </Card>
  );
}
