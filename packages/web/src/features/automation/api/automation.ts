import type {
  AutomaticClosingSettingsInput,
  Automation,
  Backtest,
  BacktestRequestInput,
} from '@flowbox/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** Where a zone lives; every automatic-closing call is made under it. */
export type AutomationZoneRef = { customerId: string; siteId: string; buildingId: string; zoneId: string };

const basePath = (ref: AutomationZoneRef) =>
  `/customers/${ref.customerId}/sites/${ref.siteId}/buildings/${ref.buildingId}/zones/${ref.zoneId}/automation`;

/** Under the zone's key (features/zones), so whatever refreshes a zone refreshes its automation. */
export const automationKey = (ref: AutomationZoneRef) =>
  [
    'customers',
    ref.customerId,
    'sites',
    ref.siteId,
    'buildings',
    ref.buildingId,
    'zones',
    ref.zoneId,
    'automation',
  ] as const;

export const automationQueryOptions = (ref: AutomationZoneRef) =>
  queryOptions({
    queryKey: automationKey(ref),
    queryFn: () => api.get<Automation>(`${basePath(ref)}/info`),
  });

export const useAutomation = (ref: AutomationZoneRef) => useQuery(automationQueryOptions(ref));

export function useUpdateAutomation(ref: AutomationZoneRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AutomaticClosingSettingsInput) =>
      api.put<Automation>(`${basePath(ref)}/update`, input),
    onSuccess: (automation) => queryClient.setQueryData(automationKey(ref), automation),
  });
}

/** spec §4: leaving automatic closing, the zone's name typed. */
export function useExitAutomation(ref: AutomationZoneRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (confirmName: string) =>
      api.post<Automation>(`${basePath(ref)}/exit`, { confirm_name: confirmName }),
    onSuccess: (automation) => queryClient.setQueryData(automationKey(ref), automation),
  });
}

/**
 * What proposed settings would have done over the zone's last days, beside the settings in force
 * (docs/automation.md "Backtest"). A read, though posted: nothing is cached or changed.
 */
export function useBacktest(ref: AutomationZoneRef) {
  return useMutation({
    mutationFn: (input: BacktestRequestInput) => api.post<Backtest>(`${basePath(ref)}/backtest`, input),
  });
}
