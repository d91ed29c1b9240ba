import type { FirmwareUpdate, FirmwareUpdateCreateInput } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { type FirmwareFlowboxRef, flowboxFirmwareKey, flowboxFirmwarePath } from './get-flowbox-firmware.ts';

/**
 * Updates one flowbox to an image (docs/firmware.md); the device's steps then show on the card.
 * During its building's opening hours the server refuses (`errors.firmware_opening_hours`) unless
 * `duringOpeningHours` says to update it even then.
 */
export function useUpdateFlowboxFirmware(ref: FirmwareFlowboxRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ imageId, duringOpeningHours }: { imageId: string; duringOpeningHours: boolean }) =>
      api.post<FirmwareUpdate>(flowboxFirmwarePath(ref), {
        image_id: imageId,
        during_opening_hours: duringOpeningHours,
      } satisfies FirmwareUpdateCreateInput),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: flowboxFirmwareKey(ref) }),
  });
}
