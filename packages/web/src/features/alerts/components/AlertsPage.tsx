import {
  ROLES,
  ALERT_CATEGORIES,
  ALERT_STATES,
  isBackendDate,
  type AlertCategory,
  type AlertsQuery,
} from '@flowbox/shared';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useAddressQuery } from '../../../lib/params.ts';
import { DateField } from '../../../components/DateField.tsx';
import { CountBadge, FoldButton } from '../../../components/FoldButton.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { Select } from '../../../components/Select.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { END_USER, hasRole, useUser } from '../../auth/index.ts';
import { useCustomers } from '../../customers/index.ts';
import type { AlertFilters } from '../api/list-alerts.ts';
import { useFollowedZones } from '../api/followed-zones.ts';
import { AlertList } from './AlertList.tsx';
import { ZonePicker } from './ZonePicker.tsx';

const STATES = ['active', ...ALERT_STATES] as const;
type StateFilter = (typeof STATES)[number];
type Update = (patch: Record<string, string | undefined>) => void;

/** The filters live in the address, so a filtered view can be shared and the back button works. */
function useFilters(): [AlertFilters, Update] {
  const [params, update] = useAddressQuery();
  const category = params.get('category');
  const state = params.get('state');
  const filters: AlertFilters = {
    state: (STATES as readonly string[]).includes(state ?? '') ? (state as StateFilter) : 'active',
    ...(category && (ALERT_CATEGORIES as readonly string[]).includes(category)
      ? { category: category as AlertCategory }
      : {}),
    ...(params.get('customer_id') ? { customer_id: params.get('customer_id')! } : {}),
    ...(params.get('zone_id') ? { zone_id: params.get('zone_id')! } : {}),
    ...(params.get('building_id') ? { building_id: params.get('building_id')! } : {}),
    ...(params.get('site_id') ? { site_id: params.get('site_id')! } : {}),
    ...(params.get('from') ? { from: params.get('from')! } : {}),
    ...(params.get('to') ? { to: params.get('to')! } : {}),
  } satisfies Partial<AlertsQuery>;
  return [filters, update];
}

/** A provider manager first picks a customer: zones are listed one customer at a time. */
function CustomerFilter({ value, update }: { value: string; update: Update }) {
  const { t } = useLanguage();
  const customers = useCustomers({ limit: 500, offset: 0 });
  return (
    <Select
      label={t('alerts.filter.customer')}
      name="customer_id"
      value={value}
      disabled={!customers.data}
      onChange={(event) =>
        update({ customer_id: event.target.value || undefined, zone_id: undefined, name: undefined })
      }
      placeholder={t('alerts.filter.all_customers')}
      options={(customers.data?.items ?? []).map((c) => ({ value: c.id, label: c.name }))}
    />
  );
}

/** spec §2 filters: the zone, among the zones of the customer the user sees (its own sites' for a site manager). */
function ZoneFilter({
  customerId,
  value,
  update,
}: {
  customerId: string | null;
  value: string;
  update: Update;
}) {
  const { t } = useLanguage();
  const zones = useFollowedZones(customerId);
  const items = zones.data?.items ?? [];
  // A zone named in the address (from an overview) that is not in the list stays selectable.
  return (
    <ZonePicker
      label={t('alerts.filter.zone_label')}
      allLabel={customerId ? t('alerts.filter.all_zones') : t('alerts.filter.pick_customer_first')}
      zones={items}
      value={items.some((z) => z.id === value) ? value : ''}
      onChange={(zoneId) => update({ zone_id: zoneId || undefined, name: undefined })}
    />
  );
}

/** How many filters narrow the list beyond the default view (open or silenced alerts, every place). */
function activeFilterCount(filters: AlertFilters, provider: boolean): number {
  const set = [
    filters.category,
    filters.zone_id,
    filters.from,
    filters.to,
    provider ? filters.customer_id : undefined,
  ];
  return set.filter(Boolean).length + (filters.state && filters.state !== 'active' ? 1 : 0);
}

/** On phones the filters fold behind this button, so the alerts come first (above the fold). */
function FiltersToggle({ open, count, onToggle }: { open: boolean; count: number; onToggle: () => void }) {
  const { t } = useLanguage();
  return (
    <FoldButton
      open={open}
      controls="alert-filters"
      onToggle={onToggle}
      className="mb-3 flex items-center gap-2 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-sky-600 sm:hidden dark:border-slate-700 dark:bg-slate-900"
    >
      {t('alerts.filters')}
      <CountBadge count={count} label={t('alerts.filters_active', { count })} />
    </FoldButton>
  );
}

/** Notifications and alerts (spec §2 "notifications and alerts"): filters by category, zone, state and dates. */
export function AlertsPage() {
  const { t } = useLanguage();
  const user = useUser();
  const [filters, update] = useFilters();
  const [params] = useSearchParams();
  const provider = user.role === ROLES.flovea_manager;
  const customerId = provider ? (filters.customer_id ?? null) : user.customer_id;
  // From a site or building overview (or a zone outside the picker's list): say what the list is limited to.
  const scoped = filters.building_id ?? filters.site_id ?? (customerId ? undefined : filters.zone_id);
  // The list follows a date box once it names a day, or once it is emptied; half-typed text waits.
  const filterByDate = (key: 'from' | 'to', value: string) => {
    if (value === '' || isBackendDate(value)) update({ [key]: value || undefined });
  };
  const [filtersOpen, setFiltersOpen] = useState(false);
  return (
    <>
      <PageHeader
        title={t('alerts.title')}
        description={t(hasRole(user, END_USER) ? 'alerts.description_end_user' : 'alerts.description')}
      />
      <FiltersToggle
        open={filtersOpen}
        count={activeFilterCount(filters, provider)}
        onToggle={() => setFiltersOpen((open) => !open)}
      />
      <section
        id="alert-filters"
        aria-label={t('alerts.filters')}
        // Five filters in a row only on a wide screen: at 1280 px beside the navigation a column is
        // too narrow for "Ouvertes ou en sourdine".
        className={`mb-5 ${filtersOpen ? 'grid' : 'hidden'} items-start gap-3 sm:grid sm:grid-cols-2 lg:grid-cols-3 ${provider ? '' : '2xl:grid-cols-5'}`}
      >
        {provider && <CustomerFilter value={filters.customer_id ?? ''} update={update} />}
        <ZoneFilter customerId={customerId} value={filters.zone_id ?? ''} update={update} />
        <Select
          label={t('alerts.filter.category')}
          name="category"
          value={filters.category ?? ''}
          onChange={(event) => update({ category: event.target.value || undefined })}
          placeholder={t('alerts.filter.all')}
          options={ALERT_CATEGORIES.map((c) => ({ value: c, label: t(`alerts.category.${c}`) }))}
        />
        <Select
          label={t('alerts.filter.state')}
          name="state"
          value={filters.state ?? 'active'}
          onChange={(event) => update({ state: event.target.value })}
          options={STATES.map((s) => ({ value: s, label: t(`alerts.state.${s}`) }))}
        />
        <DateField
          label={t('alerts.filter.from')}
          name="from"
          value={filters.from}
          onChange={(value) => filterByDate('from', value)}
        />
        <DateField
          label={t('alerts.filter.to')}
          name="to"
          value={filters.to}
          onChange={(value) => filterByDate('to', value)}
        />
      </section>
      {scoped && (
        <p className="mb-4 text-sm">
          {t('alerts.filter.zone', { name: params.get('name') ?? '' })}{' '}
          <Link
            to={paths.alerts.getHref()}
            className="text-sky-700 underline focus-visible:outline-2 focus-visible:outline-sky-600 dark:text-sky-400"
          >
            {t('alerts.filter.clear_zone')}
          </Link>
        </p>
      )}
      <AlertList filters={filters} emptyTitle={t('alerts.empty')} emptyText={t('alerts.empty_text')} />
    </>
  );
}
