import type { User } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { familyKey, familyPath, type ManagerFamily } from '../family.ts';

export const getManager = (family: ManagerFamily, managerId: string) =>
  api.get<User>(`${familyPath(family)}/${managerId}/info`);

export const managerQueryOptions = (family: ManagerFamily, managerId: string) =>
  queryOptions({
    queryKey: [...familyKey(family), 'info', managerId],
    queryFn: () => getManager(family, managerId),
  });

export const useManager = (family: ManagerFamily, managerId: string) =>
  useQuery(managerQueryOptions(family, managerId));
