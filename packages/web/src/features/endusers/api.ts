import type { ClaimCode, ClaimCodeIssued, Registration } from '@flowbox/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';

type Page<T> = { items: T[]; total: number };
const key = (customerId: string) => ['customers', customerId, 'registrations'] as const;

/** The confirmed registrations waiting for a decision (docs/permissions.md "Registration"). */
export const registrationsQueryOptions = (customerId: string) =>
  queryOptions({
    queryKey: key(customerId),
    queryFn: () =>
      api.get<Page<Registration>>(`/customers/${customerId}/registrations/list`, {
        status: 'pending',
        limit: 100,
      }),
  });

export const useRegistrations = (customerId: string) => useQuery(registrationsQueryOptions(customerId));

export function useDecideRegistration(customerId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision }: { id: string; decision: 'approve' | 'refuse' }) =>
      api.post<Registration>(`/customers/${customerId}/registrations/${id}/${decision}`, {}),
    onSuccess: () => client.invalidateQueries({ queryKey: key(customerId) }),
  });
}

export type ZoneRef = { customerId: string; siteId: string; buildingId: string; zoneId: string };

const codesPath = (zone: ZoneRef) =>
  `/customers/${zone.customerId}/sites/${zone.siteId}/buildings/${zone.buildingId}/zones/${zone.zoneId}/claim_codes`;
const codesKey = (zoneId: string) => ['zones', zoneId, 'claim_codes'] as const;

/** A zone's claim codes, newest first, each with its state (docs/permissions.md "Registration"). */
export const useClaimCodes = (zone: ZoneRef | null) =>
  useQuery({
    queryKey: codesKey(zone?.zoneId ?? ''),
    queryFn: () => api.get<Page<ClaimCode>>(`${codesPath(zone!)}/list`),
    enabled: zone !== null,
  });

export function useIssueClaimCode() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({
      zone,
      body,
    }: {
      zone: ZoneRef;
      body: { max_uses: number | null; auto_approve: boolean };
    }) => api.post<ClaimCodeIssued>(`${codesPath(zone)}/create`, body),
    onSuccess: (_code, { zone }) => client.invalidateQueries({ queryKey: codesKey(zone.zoneId) }),
  });
}

/** Revokes a code: registrations not yet confirmed with it go nowhere. */
export function useRevokeClaimCode() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ zone, codeId }: { zone: ZoneRef; codeId: string }) =>
      api.post<ClaimCode>(`${codesPath(zone)}/${codeId}/revoke`, {}),
    onSuccess: (_code, { zone }) => client.invalidateQueries({ queryKey: codesKey(zone.zoneId) }),
  });
}
