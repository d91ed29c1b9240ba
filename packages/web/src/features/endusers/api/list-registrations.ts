import type { Registration } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const registrationsKey = (customerId: string) => ['customers', customerId, 'registrations'] as const;

/** The confirmed registrations waiting for a decision (docs/permissions.md "Registration"). */
export const registrationsQueryOptions = (customerId: string) =>
  queryOptions({
    queryKey: registrationsKey(customerId),
    queryFn: () =>
      api.get<{ items: Registration[]; total: number }>(`/customers/${customerId}/registrations/list`, {
        status: 'pending',
        limit: 100,
      }),
  });

export const useRegistrations = (customerId: string) => useQuery(registrationsQueryOptions(customerId));
