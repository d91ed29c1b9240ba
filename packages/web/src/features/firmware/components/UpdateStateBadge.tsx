import type { FirmwareUpdateState } from '@flowbox/shared';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { Badge } from '../../../components/Badge.tsx';
import { stateTone } from '../format.ts';

/** An update's state in words (spec §4 names), coloured by its group; a pill never breaks over lines. */
export function UpdateStateBadge({ state }: { state: FirmwareUpdateState }) {
  const { t } = useLanguage();
  return (
    <Badge tone={stateTone(state)}>
      <span className="whitespace-nowrap">{t(`firmware.state.${state}`)}</span>
    </Badge>
  );
}
