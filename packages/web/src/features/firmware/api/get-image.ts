import type { FirmwareImage } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { FIRMWARE_KEY } from './keys.ts';

export const getImage = (imageId: string) => api.get<FirmwareImage>(`/firmware/images/${imageId}`);

export const imageQueryOptions = (imageId: string) =>
  queryOptions({ queryKey: [...FIRMWARE_KEY, 'image', imageId], queryFn: () => getImage(imageId) });

export const useImage = (imageId: string) => useQuery(imageQueryOptions(imageId));
