import type { Job } from '../jobs/index.ts';
import type { DynsecDeviceAccounts } from './device-accounts.ts';

/** Reconciliation mends only what a broker outage left behind: every few minutes is plenty. */
export const ACCOUNTS_RECONCILE_MS = 5 * 60_000;

/** The broker's device accounts set right against the database (docs/protocol.md); with dynsec only. */
export function deviceAccountsReconcileJob(
  accounts: Pick<DynsecDeviceAccounts, 'reconcile'>,
  everyMs = ACCOUNTS_RECONCILE_MS,
): Job {
  return { name: 'device_accounts_reconcile', everyMs, pass: () => accounts.reconcile() };
}
