import type { ClaimCodeIssued } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { claimCodesKey, claimCodesPath } from './list-claim-codes.ts';
import type { ZoneRef } from '../../../lib/zone-ref.ts';

export function useIssueClaimCode() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({
      zone,
      body,
    }: {
      zone: ZoneRef;
      body: { max_uses: number | null; auto_approve: boolean };
    }) => api.post<ClaimCodeIssued>(`${claimCodesPath(zone)}/create`, body),
    onSuccess: (_code, { zone }) => client.invalidateQueries({ queryKey: claimCodesKey(zone.zoneId) }),
  });
}
