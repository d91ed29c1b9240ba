import type { WaterPoint } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { zoneKey, zonePath, type ZoneRef } from './get-zone.ts';

export type WaterPointList = { items: WaterPoint[]; total: number };

/** The zone's water points, searched by label. */
export const listWaterPoints = (ref: ZoneRef, search?: string) =>
  api.get<WaterPointList>(`${zonePath(ref)}/water_points/list`, { search, limit: 500 });

export const waterPointsQueryOptions = (ref: ZoneRef, search?: string) =>
  queryOptions({
    queryKey: [...zoneKey(ref), 'water_points', search ?? ''],
    queryFn: () => listWaterPoints(ref, search),
  });

export const useWaterPoints = (ref: ZoneRef, search?: string) =>
  useQuery(waterPointsQueryOptions(ref, search));
