import type { Flowbox } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { ZoneRef } from '../../zones/index.ts';
import { flowboxesKey, flowboxesPath } from './get-flowbox.ts';

export const flowboxListKey = (ref: ZoneRef) => [...flowboxesKey(ref), 'list'] as const;

export const listFlowboxes = (ref: ZoneRef) => api.get<{ items: Flowbox[] }>(`${flowboxesPath(ref)}/list`);

export const flowboxesQueryOptions = (ref: ZoneRef) =>
  queryOptions({ queryKey: flowboxListKey(ref), queryFn: () => listFlowboxes(ref) });

export const useFlowboxes = (ref: ZoneRef) => useQuery(flowboxesQueryOptions(ref));
