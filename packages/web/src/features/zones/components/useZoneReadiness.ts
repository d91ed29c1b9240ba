import type { Flowbox } from '@flowbox/shared';
import { ANY_ROLE, hasRole, useUser } from '../../auth/index.ts';
import { useAutomation } from '../../automation/index.ts';
import { useZoneSubscription } from '../../billing/index.ts';
import { useFlowboxes } from '../api/list-flowboxes.ts';
import type { ZoneRef } from '../api/get-zone.ts';

export type ZoneReadiness = {
  /** Undefined while it is being read. */
  subscribed: boolean | undefined;
  pairedFlowboxes: Flowbox[] | undefined;
  automaticClosing: boolean | undefined;
};

/** What a zone has of what it needs to watch and protect the water (spec §5: subscription before pairing). */
export function useZoneReadiness(zoneRef: ZoneRef): ZoneReadiness {
  // A plumber reads no billing (docs/permissions.md): its subscription stays unknown.
  const subscription = useZoneSubscription(zoneRef, { enabled: hasRole(useUser(), ANY_ROLE) });
  const flowboxes = useFlowboxes(zoneRef);
  const automation = useAutomation(zoneRef);
  return {
    subscribed: subscription.data ? subscription.data.current !== null : undefined,
    pairedFlowboxes: flowboxes.data?.items.filter((f) => f.pairing_state === 'ready'),
    automaticClosing: automation.data?.automatic_closing_enabled,
  };
}

/** The anchors of the zone page's sections the checklist leads to. */
export const ZONE_SECTION = { flowboxes: 'flowboxes', automation: 'automatic-closing' } as const;
