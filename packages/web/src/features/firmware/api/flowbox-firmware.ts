import type { FirmwareUpdate, FlowboxFirmware } from '@flowbox/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { ZoneRef } from '../../zones/index.ts';
import { FIRMWARE_KEY, FIRMWARE_POLL_MS } from './keys.ts';

/** Where a flowbox lives: its firmware calls are made under its zone, as every flowbox call. */
export type FirmwareFlowboxRef = ZoneRef & { flowboxId: string };

const flowboxFirmwarePath = ({ customerId, siteId, buildingId, zoneId, flowboxId }: FirmwareFlowboxRef) =>
  `/customers/${customerId}/sites/${siteId}/buildings/${buildingId}/zones/${zoneId}/flowboxes/${flowboxId}/firmware`;

export const flowboxFirmwareKey = (ref: FirmwareFlowboxRef) =>
  [...FIRMWARE_KEY, 'flowbox', ref.flowboxId] as const;

export const getFlowboxFirmware = (ref: FirmwareFlowboxRef) =>
  api.get<FlowboxFirmware>(flowboxFirmwarePath(ref));

/** Read again at the polling pace while an update runs on the device, not otherwise. */
export const flowboxFirmwareQueryOptions = (ref: FirmwareFlowboxRef) =>
  queryOptions({
    queryKey: flowboxFirmwareKey(ref),
    queryFn: () => getFlowboxFirmware(ref),
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.current ? FIRMWARE_POLL_MS : false),
  });

export const useFlowboxFirmware = (ref: FirmwareFlowboxRef) => useQuery(flowboxFirmwareQueryOptions(ref));

/** Updates one flowbox to an image (docs/firmware.md); the device's steps then show on the card. */
export function useUpdateFlowboxFirmware(ref: FirmwareFlowboxRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (imageId: string) =>
      api.post<FirmwareUpdate>(flowboxFirmwarePath(ref), { image_id: imageId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: flowboxFirmwareKey(ref) }),
  });
}
