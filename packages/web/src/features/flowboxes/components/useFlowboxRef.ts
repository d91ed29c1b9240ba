import { useRequiredParam } from '../../../lib/params.ts';
import { useZoneRef } from '../../zones/index.ts';
import type { FlowboxRef } from '../api/get-flowbox.ts';

/** The flowbox's ids from the route (paths.ts guarantees them on the flowbox screen). */
export function useFlowboxRef(): FlowboxRef {
  return { ...useZoneRef(), flowboxId: useRequiredParam('flowboxId') };
}
