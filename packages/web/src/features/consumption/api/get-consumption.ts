import type { ConsumptionSeries, ConsumptionWindow } from '@flowbox/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { consumptionKey, targetPath, type ConsumptionTarget } from './target.ts';

export const getConsumption = (target: ConsumptionTarget, window: ConsumptionWindow) =>
  api.get<ConsumptionSeries>(`${targetPath(target)}/consumption`, { window, compare: 'previous' });

export const consumptionQueryOptions = (target: ConsumptionTarget, window: ConsumptionWindow) =>
  queryOptions({
    queryKey: [...consumptionKey(target), 'series', window],
    queryFn: () => getConsumption(target, window),
    // Switching the window keeps the previous graph on screen until the next one is there.
    placeholderData: keepPreviousData,
  });

export const useConsumption = (target: ConsumptionTarget, window: ConsumptionWindow) =>
  useQuery(consumptionQueryOptions(target, window));
