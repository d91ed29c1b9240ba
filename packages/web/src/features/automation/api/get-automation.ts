import type { Automation } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { automationKey, automationPath } from './keys.ts';
import type { ZoneRef } from '../../../lib/zone-ref.ts';

export const automationQueryOptions = (ref: ZoneRef) =>
  queryOptions({
    queryKey: automationKey(ref),
    queryFn: () => api.get<Automation>(`${automationPath(ref)}/info`),
  });

export const useAutomation = (ref: ZoneRef) => useQuery(automationQueryOptions(ref));
