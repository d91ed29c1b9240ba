import type { Job } from '../jobs/index.ts';
import type { WaterBalanceService } from './water-balance.service.ts';

/** A night is judged an hour after it ends; a pass every 10 minutes finds it soon enough. */
export const WATER_BALANCE_PASS_MS = 10 * 60_000;

/**
 * The buildings' nights against their unaccounted-water thresholds (docs/automation.md "Building
 * water balance"): each pass judges the due buildings, at most JUDGE_BATCH, each claimed by one
 * instance (FOR UPDATE SKIP LOCKED).
 */
export function waterBalanceNightsJob(service: WaterBalanceService, everyMs = WATER_BALANCE_PASS_MS): Job {
  return { name: 'water_balance_nights', everyMs, jitterMs: 60_000, pass: () => service.judgeDueNights() };
}
