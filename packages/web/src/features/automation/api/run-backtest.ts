import type { Backtest, BacktestRequestInput } from '@flowbox/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { automationPath } from './keys.ts';
import type { ZoneRef } from '../../../lib/zone-ref.ts';

/**
 * What proposed settings would have done over the zone's last days, beside the settings in force
 * (docs/automation.md "Backtest"). A read, though posted: nothing is cached or changed.
 */
export function useBacktest(ref: ZoneRef) {
  return useMutation({
    mutationFn: (input: BacktestRequestInput) => api.post<Backtest>(`${automationPath(ref)}/backtest`, input),
  });
}
