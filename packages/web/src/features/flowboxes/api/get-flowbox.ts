import type { Flowbox } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { flowboxesKey, flowboxesPath, type ZoneRef } from '../../zones/index.ts';

/** Where a flowbox lives: every flowbox call is made under its zone. */
export type FlowboxRef = ZoneRef & { flowboxId: string };

export const flowboxKey = (ref: FlowboxRef) => [...flowboxesKey(ref), ref.flowboxId] as const;
export const flowboxInfoKey = (ref: FlowboxRef) => [...flowboxKey(ref), 'info'] as const;

export const flowboxPath = (ref: FlowboxRef) => `${flowboxesPath(ref)}/${ref.flowboxId}`;

export const getFlowbox = (ref: FlowboxRef) => api.get<Flowbox>(`${flowboxPath(ref)}/info`);

export const flowboxQueryOptions = (ref: FlowboxRef) =>
  queryOptions({ queryKey: flowboxInfoKey(ref), queryFn: () => getFlowbox(ref) });

export const useFlowbox = (ref: FlowboxRef) => useQuery(flowboxQueryOptions(ref));
