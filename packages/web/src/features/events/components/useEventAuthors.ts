import { ROLES, type User } from '@flowbox/shared';
import { useManagers } from '../../managers/index.ts';
import { useUser } from '../../auth/index.ts';
import type { EventsScope } from '../scope.ts';

const ALL = { limit: 500, offset: 0 } as const;

/**
 * The people a log can be filtered by: the managers the reader may list (provider managers for the
 * provider, then the customer's and site managers). A site manager lists no one, so gets none.
 */
export function useEventAuthors(scope: EventsScope): { authors: User[]; isLoading: boolean } {
  const user = useUser();
  const siteId = scope.level === 'customer' ? undefined : scope.siteId;
  const flovea = useManagers({ role: ROLES.flovea_manager }, ALL, {
    enabled: user.role === ROLES.flovea_manager,
  });
  const customer = useManagers({ role: ROLES.customer_manager, customerId: scope.customerId }, ALL, {
    enabled: user.role !== ROLES.site_manager,
  });
  const site = useManagers(
    { role: ROLES.site_manager, customerId: scope.customerId },
    { ...ALL, site_id: siteId },
    { enabled: user.role !== ROLES.site_manager },
  );
  const lists = [flovea, customer, site];
  const authors = lists
    .flatMap((list) => list.data?.items ?? [])
    .sort((a, b) => `${a.firstname} ${a.lastname}`.localeCompare(`${b.firstname} ${b.lastname}`));
  return { authors, isLoading: lists.some((list) => list.isLoading) };
}
