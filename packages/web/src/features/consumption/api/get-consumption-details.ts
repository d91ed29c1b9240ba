import type { ConsumptionDetails, ConsumptionWindow } from '@flowbox/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ApiRequestError, api } from '../../../lib/api-client.ts';
import { consumptionKey, targetPath, type ConsumptionTarget } from './target.ts';

type ZoneTarget = Required<ConsumptionTarget>;

/** Device-level details of a zone; the server refuses them for basic zones (premium only). */
export const getConsumptionDetails = (target: ZoneTarget, window: ConsumptionWindow) =>
  api.get<ConsumptionDetails>(`${targetPath(target)}/consumption/details`, { window });

export const useConsumptionDetails = (target: ZoneTarget, window: ConsumptionWindow) =>
  useQuery({
    queryKey: [...consumptionKey(target), 'details', window],
    queryFn: () => getConsumptionDetails(target, window),
    placeholderData: keepPreviousData,
    // A refusal (premium only, forbidden) stays a refusal: asking again changes nothing.
    retry: (failures, error) => !(error instanceof ApiRequestError && error.status < 500) && failures < 2,
  });
