import type { Flowbox } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { zoneKey, zonePath, type ZoneRef } from './get-zone.ts';

/** Under the zone's key, so whatever refreshes a zone refreshes its flowboxes. */
export const flowboxesKey = (ref: ZoneRef) => [...zoneKey(ref), 'flowboxes'] as const;

export const flowboxesPath = (ref: ZoneRef) => `${zonePath(ref)}/flowboxes`;

/**
 * The flowboxes of one zone, for its overview and readiness (the flowbox screens are the flowboxes
 * feature's, which lists them with this query).
 */
export const flowboxListKey = (ref: ZoneRef) => [...flowboxesKey(ref), 'list'] as const;

export const listFlowboxes = (ref: ZoneRef) => api.get<{ items: Flowbox[] }>(`${flowboxesPath(ref)}/list`);

export const flowboxesQueryOptions = (ref: ZoneRef) =>
  queryOptions({ queryKey: flowboxListKey(ref), queryFn: () => listFlowboxes(ref) });

export const useFlowboxes = (ref: ZoneRef) => useQuery(flowboxesQueryOptions(ref));
