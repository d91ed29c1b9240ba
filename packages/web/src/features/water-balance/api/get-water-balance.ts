import { addDays, localDate, type WaterBalance, type WaterBalanceBucketKind } from '@flowbox/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export type BuildingRef = { customerId: string; siteId: string; buildingId: string; timezone: string };

export const buildingPath = ({ customerId, siteId, buildingId }: BuildingRef) =>
  `/customers/${customerId}/sites/${siteId}/buildings/${buildingId}`;

export const waterBalanceKey = (building: BuildingRef) => ['water-balance', building.buildingId] as const;

/** What the card shows: the last 14 nights, or the hours of the last 2 days, up to today. */
const DAYS_SHOWN: Record<WaterBalanceBucketKind, number> = { night: 14, hour: 2 };

/** The local dates of the building the card asks for, today last. */
export function windowOf(by: WaterBalanceBucketKind, timezone: string, now = new Date()) {
  const to = localDate(now, timezone);
  return { from: addDays(to, 1 - DAYS_SHOWN[by]), to };
}

export const getWaterBalance = (building: BuildingRef, by: WaterBalanceBucketKind) =>
  api.get<WaterBalance>(`${buildingPath(building)}/water_balance`, {
    by,
    ...windowOf(by, building.timezone),
  });

export const useWaterBalance = (building: BuildingRef, by: WaterBalanceBucketKind) =>
  useQuery({
    queryKey: [...waterBalanceKey(building), by],
    queryFn: () => getWaterBalance(building, by),
    placeholderData: keepPreviousData,
  });
