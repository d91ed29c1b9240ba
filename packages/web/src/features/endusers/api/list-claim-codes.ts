import type { ClaimCode } from '@flowbox/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { ZoneRef } from '../../../lib/zone-ref.ts';

export const claimCodesPath = (zone: ZoneRef) =>
  `/customers/${zone.customerId}/sites/${zone.siteId}/buildings/${zone.buildingId}/zones/${zone.zoneId}/claim_codes`;
export const claimCodesKey = (zoneId: string) => ['zones', zoneId, 'claim_codes'] as const;

/** A zone's claim codes, newest first, each with its state (docs/permissions.md "Registration"). */
export const useClaimCodes = (zone: ZoneRef | null) =>
  useQuery({
    queryKey: claimCodesKey(zone?.zoneId ?? ''),
    queryFn: () => api.get<{ items: ClaimCode[]; total: number }>(`${claimCodesPath(zone!)}/list`),
    enabled: zone !== null,
  });
