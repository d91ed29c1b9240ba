import type { User } from '@flowbox/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { familyKey, familyPath, type ManagerFamily } from '../family.ts';

export type ManagersQuery = { search?: string; limit: number; offset: number; site_id?: string };
export type ManagerList = { items: User[]; total: number };

export const listManagers = (family: ManagerFamily, query: ManagersQuery) =>
  api.get<ManagerList>(`${familyPath(family)}/list`, query);

export const managersQueryOptions = (family: ManagerFamily, query: ManagersQuery) =>
  queryOptions({
    queryKey: [...familyKey(family), 'list', query],
    queryFn: () => listManagers(family, query),
    placeholderData: keepPreviousData,
  });

export const useManagers = (
  family: ManagerFamily,
  query: ManagersQuery,
  options: { enabled?: boolean } = {},
) => useQuery({ ...managersQueryOptions(family, query), enabled: options.enabled ?? true });
