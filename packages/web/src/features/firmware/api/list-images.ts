import type { FirmwareImage, FirmwareImageStatus, FlowboxModel } from '@flowbox/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { FIRMWARE_KEY } from './keys.ts';

export type ImageFilters = { model?: FlowboxModel; status?: FirmwareImageStatus };

/** The catalogue as the caller may see it: all of it for the provider, what is released to them for others. */
export const listImages = async (filters: ImageFilters) =>
  (await api.get<{ items: FirmwareImage[] }>('/firmware/images', filters)).items;

export const imagesQueryOptions = (filters: ImageFilters) =>
  queryOptions({
    queryKey: [...FIRMWARE_KEY, 'images', filters],
    queryFn: () => listImages(filters),
    placeholderData: keepPreviousData,
  });

export const useImages = (filters: ImageFilters) => useQuery(imagesQueryOptions(filters));
