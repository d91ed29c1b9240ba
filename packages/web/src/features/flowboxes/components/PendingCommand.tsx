import type { FlowboxCommand } from '@flowbox/shared';
import { useLanguage } from '../../../lib/i18n/index.ts';
import type { SwitchCommand, SwitchName } from '../format.ts';
import { CommandStatusBadge } from './CommandStatus.tsx';

/**
 * A live region saying which of the switch's commands is on its way ("Closing the valve…") and its
 * state, until the device answers; empty otherwise, so that the change is announced.
 */
export function PendingCommand({
  name,
  command,
}: {
  name: SwitchName;
  command: (FlowboxCommand & { name: SwitchCommand }) | undefined;
}) {
  const { t } = useLanguage();
  return (
    <div role="status" className="text-sm">
      {command && (
        <p data-testid={`${name.replace('_', '-')}-pending`} className="flex flex-wrap items-center gap-2">
          <span className="font-medium">{t(`commands.pending.${command.name}`)}</span>
          <CommandStatusBadge command={command} />
          <span className="text-slate-600 dark:text-slate-400">{t('commands.pending_hint')}</span>
        </p>
      )}
    </div>
  );
}
