import type { Flowbox } from '@flowbox/shared';
import { formatDateTime } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { Badge } from '../../../components/Badge.tsx';
import { CONNECTION_TONE, PAIRING_TONE } from '../format.ts';

/** spec §4 pairing state with its step (init 1/3, pending 2/3, ready 3/3). */
export function PairingBadge({ flowbox }: { flowbox: Flowbox }) {
  const { t } = useLanguage();
  return (
    <Badge tone={PAIRING_TONE[flowbox.pairing_state]}>
      {t(`flowboxes.pairing.${flowbox.pairing_state}`)}
    </Badge>
  );
}

/** spec §4 connection: connected, disconnected since a datetime, or never connected. */
export function ConnectionBadge({ flowbox }: { flowbox: Flowbox }) {
  const { t, language } = useLanguage();
  const label =
    flowbox.connection === 'disconnected' && flowbox.connection_since
      ? t('flowboxes.disconnected_since', { date: formatDateTime(flowbox.connection_since, language) })
      : t(`flowboxes.connection.${flowbox.connection}`);
  return (
    <span data-testid="flowbox-connection">
      <Badge tone={CONNECTION_TONE[flowbox.connection]}>{label}</Badge>
    </span>
  );
}
