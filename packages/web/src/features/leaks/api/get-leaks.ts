import type { LeakAnalytics } from '@flowbox/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** A building, or one of its zones: whose leak analytics to read. */
export type LeakTarget = { customerId: string; siteId: string; buildingId: string; zoneId?: string };

export const leaksPath = ({ customerId, siteId, buildingId, zoneId }: LeakTarget) =>
  `/customers/${customerId}/sites/${siteId}/buildings/${buildingId}${zoneId ? `/zones/${zoneId}` : ''}/leaks`;

export const leaksKey = (target: LeakTarget) => ['leaks', target.zoneId ?? target.buildingId] as const;

export const useLeaks = (target: LeakTarget) =>
  useQuery({ queryKey: leaksKey(target), queryFn: () => api.get<LeakAnalytics>(leaksPath(target)) });
