import type { User } from '@flowbox/shared';
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
  const flovea = useManagers({ role: 1 }, ALL, { enabled: user.role === 1 });
  const customer = useManagers({ role: 2, customerId: scope.customerId }, ALL, { enabled: user.role !== 3 });
  const site = useManagers(
    { role: 3, customerId: scope.customerId },
    { ...ALL, site_id: siteId },
    { enabled: user.role !== 3 },
  );
  const lists = [flovea, customer, site];
  const authors = lists
    .flatMap((list) => list.data?.items ?? [])
    .sort((a, b) => `${a.firstname} ${a.lastname}`.localeCompare(`${b.firstname} ${b.lastname}`));
  return { authors, isLoading: lists.some((list) => list.isLoading) };
}
