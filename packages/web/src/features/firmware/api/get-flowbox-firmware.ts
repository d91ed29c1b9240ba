import type { FlowboxFirmware } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { ZoneRef } from '../../zones/index.ts';
import type { LiveStatus } from '../../../lib/live.ts';
import { rolloutRefetchMs } from '../rollout-live.ts';
import { FIRMWARE_KEY } from './keys.ts';

/** Where a flowbox lives: its firmware calls are made under its zone, as every flowbox call. */
export type FirmwareFlowboxRef = ZoneRef & { flowboxId: string };

export const flowboxFirmwarePath = ({
  customerId,
  siteId,
  buildingId,
  zoneId,
  flowboxId,
}: FirmwareFlowboxRef) =>
  `/customers/${customerId}/sites/${siteId}/buildings/${buildingId}/zones/${zoneId}/flowboxes/${flowboxId}/firmware`;

export const flowboxFirmwareKey = (ref: Pick<FirmwareFlowboxRef, 'flowboxId'>) =>
  [...FIRMWARE_KEY, 'flowbox', ref.flowboxId] as const;

export const getFlowboxFirmware = (ref: FirmwareFlowboxRef) =>
  api.get<FlowboxFirmware>(flowboxFirmwarePath(ref));

/**
 * Read again on each pushed step of the flowbox's update (FlowboxFirmwareCard); by itself only
 * while an update runs and the live stream is down, at the rollout page's slow pace.
 */
export const flowboxFirmwareQueryOptions = (ref: FirmwareFlowboxRef, live: LiveStatus = 'connected') =>
  queryOptions({
    queryKey: flowboxFirmwareKey(ref),
    queryFn: () => getFlowboxFirmware(ref),
    staleTime: 0,
    refetchInterval: (query) => rolloutRefetchMs(!query.state.data?.current, live),
  });

export const useFlowboxFirmware = (ref: FirmwareFlowboxRef, live: LiveStatus) =>
  useQuery(flowboxFirmwareQueryOptions(ref, live));
