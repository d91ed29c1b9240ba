import type { ClaimCode } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { claimCodesKey, claimCodesPath } from './list-claim-codes.ts';
import type { ZoneRef } from '../../../lib/zone-ref.ts';

/** Revokes a code: registrations not yet confirmed with it go nowhere. */
export function useRevokeClaimCode() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ zone, codeId }: { zone: ZoneRef; codeId: string }) =>
      api.post<ClaimCode>(`${claimCodesPath(zone)}/${codeId}/revoke`, {}),
    onSuccess: (_code, { zone }) => client.invalidateQueries({ queryKey: claimCodesKey(zone.zoneId) }),
  });
}
