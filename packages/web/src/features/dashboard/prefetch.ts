import { ROLES, type User } from '@flowbox/shared';
import type { QueryClient } from '@tanstack/react-query';
import { alertCountQueryOptions, alertsQueryOptions } from '../alerts/index.ts';
import { meQueryOptions } from '../auth/index.ts';
import { refreshToken } from '../../lib/tokens.ts';
import { customersQueryOptions } from '../customers/index.ts';
import { sitesQueryOptions } from '../sites/index.ts';
import { todayQueryOptions } from './api/get-today.ts';
import { customerZonesQueryOptions } from './api/list-customer-zones.ts';

/** The provider's first page of customers. */
export const CUSTOMERS = { limit: 100, offset: 0 };
/** The open alerts card: all the user's, five of them (OpenAlertsCard with no scope). */
const OPEN_ALERTS = { filters: { state: 'active' }, pageSize: 5 } as const;

/**
 * Starts reading what the dashboard shows first, for the signed-in user (the home route's loader),
 * with the same query options as its components: the page then renders with its data instead of
 * asking for it after its first render (issue 16). Its own small module, in the app's entry (the router's, through the feature's index.ts), so
 * the reads start as soon as the user is known, while the shell's and the dashboard's code still
 * download; the alerts, every role's, start at once.
 */
export async function prefetchDashboard(queryClient: QueryClient): Promise<void> {
  if (!refreshToken()) return; // RequireAuth sends the visitor to the login page.
  const reads: Promise<void>[] = [
    queryClient.prefetchQuery(alertCountQueryOptions()),
    queryClient.prefetchInfiniteQuery(alertsQueryOptions(OPEN_ALERTS.filters, OPEN_ALERTS.pageSize)),
  ];
  let user: User;
  try {
    user = await queryClient.ensureQueryData(meQueryOptions());
  } catch {
    return; // RequireAuth sends the visitor to the login page.
  }
  // docs/permissions.md: a plumber reads no consumption, so no figures of the day.
  if (user.role !== ROLES.plumber) reads.push(queryClient.prefetchQuery(todayQueryOptions()));
  if (user.role === ROLES.flovea_manager)
    reads.push(queryClient.prefetchQuery(customersQueryOptions(CUSTOMERS)));
  else if (user.customer_id) {
    reads.push(queryClient.prefetchQuery(customerZonesQueryOptions(user.customer_id)));
    if (user.role !== ROLES.end_user)
      reads.push(queryClient.prefetchQuery(sitesQueryOptions(user.customer_id)));
  }
  await Promise.all(reads);
}
