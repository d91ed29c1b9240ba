import type { FlowboxCommand } from '@flowbox/shared';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { Badge } from '../../../components/Badge.tsx';
import { COMMAND_STATUS_TONE, refusalReason } from '../format.ts';

/** A command's state (queued, sent, acknowledged, done, refused, expired), live. */
export function CommandStatusBadge({ command }: { command: FlowboxCommand }) {
  const { t } = useLanguage();
  return (
    <span data-testid="command-status" data-status={command.status}>
      <Badge tone={COMMAND_STATUS_TONE[command.status]}>{t(`commands.status.${command.status}`)}</Badge>
    </span>
  );
}

/** The device's reason for a refusal, in words. */
export function RefusalText({ command }: { command: FlowboxCommand }) {
  const { t } = useLanguage();
  const reason = refusalReason(command);
  return reason ? <>{t('commands.refused_because', { reason: t(`commands.reason.${reason}`) })}</> : null;
}
