import type { Automation } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { automationKey, automationPath, type AutomationZoneRef } from './keys.ts';

export const automationQueryOptions = (ref: AutomationZoneRef) =>
  queryOptions({
    queryKey: automationKey(ref),
    queryFn: () => api.get<Automation>(`${automationPath(ref)}/info`),
  });

export const useAutomation = (ref: AutomationZoneRef) => useQuery(automationQueryOptions(ref));
