import type { Flowbox } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { zoneKey, type ZoneRef } from '../../zones/index.ts';

/** Where a flowbox lives: every flowbox call is made under its zone. */
export type FlowboxRef = ZoneRef & { flowboxId: string };

/** Under the zone's key, so whatever refreshes a zone refreshes its flowboxes. */
export const flowboxesKey = (ref: ZoneRef) => [...zoneKey(ref), 'flowboxes'] as const;
export const flowboxKey = (ref: FlowboxRef) => [...flowboxesKey(ref), ref.flowboxId] as const;
export const flowboxInfoKey = (ref: FlowboxRef) => [...flowboxKey(ref), 'info'] as const;

export const flowboxesPath = ({ customerId, siteId, buildingId, zoneId }: ZoneRef) =>
  `/customers/${customerId}/sites/${siteId}/buildings/${buildingId}/zones/${zoneId}/flowboxes`;
export const flowboxPath = (ref: FlowboxRef) => `${flowboxesPath(ref)}/${ref.flowboxId}`;

export const getFlowbox = (ref: FlowboxRef) => api.get<Flowbox>(`${flowboxPath(ref)}/info`);

export const flowboxQueryOptions = (ref: FlowboxRef) =>
  queryOptions({ queryKey: flowboxInfoKey(ref), queryFn: () => getFlowbox(ref) });

export const useFlowbox = (ref: FlowboxRef) => useQuery(flowboxQueryOptions(ref));
