import type { WaterBalanceSettings } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { buildingPath, waterBalanceKey, type BuildingRef } from './get-water-balance.ts';

export const updateWaterBalanceSettings = (building: BuildingRef, settings: WaterBalanceSettings) =>
  api.put<WaterBalanceSettings>(`${buildingPath(building)}/water_balance/settings`, settings);

/** Saves the main supply and the thresholds; the balance is read again (and the building's totals). */
export function useUpdateWaterBalanceSettings(building: BuildingRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: WaterBalanceSettings) => updateWaterBalanceSettings(building, settings),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: waterBalanceKey(building) }),
        // The main supply zone leaves (or rejoins) the building's consumption totals.
        queryClient.invalidateQueries({ queryKey: ['consumption'] }),
      ]),
  });
}
