import type { ImageAnswer } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { uploadPathOf, type ImageTarget } from './images.ts';

export const uploadImage = (target: ImageTarget, file: File) =>
  api.upload<ImageAnswer>(uploadPathOf(target), file);

export function useUploadImage(target: ImageTarget) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => uploadImage(target, file),
    // The owner's record now names the new image, and its activity log has a line more; every
    // hierarchy query nests under 'customers', and only the ones on screen refetch.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['customers'] }),
  });
}
