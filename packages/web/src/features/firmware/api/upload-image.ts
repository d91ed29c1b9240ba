import type { FirmwareImage, FirmwareImageCreateInput } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../../lib/api-client.ts';
import { imageFormData } from '../upload.ts';
import { FIRMWARE_KEY } from './keys.ts';

export const uploadImage = (
  input: FirmwareImageCreateInput,
  file: File,
  onProgress: (sent: number) => void,
) => api.postForm<FirmwareImage>('/firmware/images', imageFormData(input, file), onProgress);

/** The upload, and the share of the file sent so far (0 to 1; null when nothing is being sent). */
export function useUploadImage() {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);
  const mutation = useMutation({
    mutationFn: ({ input, file }: { input: FirmwareImageCreateInput; file: File }) => {
      setProgress(0);
      return uploadImage(input, file, setProgress);
    },
    onSettled: () => setProgress(null),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: FIRMWARE_KEY }),
  });
  return { ...mutation, progress };
}
