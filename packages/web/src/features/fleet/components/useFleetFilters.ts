import { FLEET_SORTS, FLOWBOX_MODELS, type FleetSort, type FlowboxModel } from '@flowbox/shared';
import { useAddressQuery } from '../../../lib/params.ts';
import type { FleetFilters } from '../api/list-fleet.ts';

/** The yes-or-no filters, each a checkbox. */
export const FLAGS = ['closed', 'locked', 'leaking', 'night_above_allowance'] as const;
/** Continuous flow for at least this many days (leak analytics' hour counter). */
export const CONTINUOUS_FLOW_DAYS = ['1', '2', '3', '7', '14'] as const;
/** Every filter "Clear filters" takes away; the sort stays. */
export const CLEARED_FILTERS = [
  ...FLAGS,
  'offline',
  'q',
  'firmware_version',
  'model',
  'continuous_flow_days',
];

/** A change of the address's filters: a value sets one, undefined takes it away. */
export type FiltersUpdate = (patch: Record<string, string | undefined>) => void;

/** The filters and sort live in the address: a filtered view is a link (the dashboard's figures). */
export function useFleetFilters(): [FleetFilters, FiltersUpdate] {
  const [params, change] = useAddressQuery();
  const sort = params.get('sort');
  const dir = params.get('dir');
  const model = params.get('model');
  const filters: FleetFilters = {
    ...Object.fromEntries(FLAGS.filter((f) => params.get(f) === 'true').map((f) => [f, 'true'])),
    // Online (false) or offline (true): the dashboard links to either.
    ...(params.get('offline') === 'true' || params.get('offline') === 'false'
      ? { offline: params.get('offline') as 'true' | 'false' }
      : {}),
    ...(params.get('q') ? { q: params.get('q')! } : {}),
    ...((CONTINUOUS_FLOW_DAYS as readonly string[]).includes(params.get('continuous_flow_days') ?? '')
      ? { continuous_flow_days: params.get('continuous_flow_days')! }
      : {}),
    ...(params.get('firmware_version') ? { firmware_version: params.get('firmware_version')! } : {}),
    ...(model && (FLOWBOX_MODELS as readonly string[]).includes(model)
      ? { model: model as FlowboxModel }
      : {}),
    ...(sort && (FLEET_SORTS as readonly string[]).includes(sort) ? { sort: sort as FleetSort } : {}),
    ...(dir === 'desc' ? { dir: 'desc' as const } : {}),
  };
  return [filters, change];
}
