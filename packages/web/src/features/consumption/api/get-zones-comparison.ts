import type { ConsumptionWindow, ZonesComparison } from '@flowbox/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { consumptionKey, targetPath, type ConsumptionTarget } from './target.ts';

/** The zones of a building or site side by side over a window, largest first. */
export const getZonesComparison = (target: ConsumptionTarget, window: ConsumptionWindow) =>
  api.get<ZonesComparison>(`${targetPath(target)}/consumption/zones`, { window });

export const useZonesComparison = (target: ConsumptionTarget, window: ConsumptionWindow) =>
  useQuery({
    queryKey: [...consumptionKey(target), 'zones', window],
    queryFn: () => getZonesComparison(target, window),
    placeholderData: keepPreviousData,
  });
