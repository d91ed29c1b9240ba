import type { FirmwareImage, FirmwareImagePatchSchema } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import { FIRMWARE_KEY } from './keys.ts';

export type ImagePatch = z.input<typeof FirmwareImagePatchSchema>;

/** Notes, release or status (deprecate, withdraw): provider managers only. */
export const updateImage = (imageId: string, patch: ImagePatch) =>
  api.patch<FirmwareImage>(`/firmware/images/${imageId}`, patch);

export function useUpdateImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ imageId, patch }: { imageId: string; patch: ImagePatch }) => updateImage(imageId, patch),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: FIRMWARE_KEY }),
  });
}
