import type { RolloutState } from '@flowbox/shared';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { Badge } from '../../../components/Badge.tsx';

const TONES = {
  running: 'accent',
  paused: 'neutral',
  halted: 'warn',
  cancelled: 'neutral',
  completed: 'good',
} as const satisfies Record<RolloutState, string>;

export function RolloutStateBadge({ state }: { state: RolloutState }) {
  const { t } = useLanguage();
  return (
    <Badge tone={TONES[state]}>
      <span className="whitespace-nowrap">{t(`firmware.rollout_state.${state}`)}</span>
    </Badge>
  );
}
