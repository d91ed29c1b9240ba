import type { Rollout, RolloutAction } from '@flowbox/shared';

/**
 * The actions a rollout's state allows (docs/firmware.md "User controls"): pause a running one,
 * resume a paused one (a halted one only by a provider manager, once the cause is understood),
 * cancel any that is not over.
 */
export function availableActions(rollout: Pick<Rollout, 'state'>, provider: boolean): RolloutAction[] {
  switch (rollout.state) {
    case 'running':
      return ['pause', 'cancel'];
    case 'paused':
      return ['resume', 'cancel'];
    case 'halted':
      return provider ? ['resume', 'cancel'] : ['cancel'];
    default:
      return [];
  }
}
