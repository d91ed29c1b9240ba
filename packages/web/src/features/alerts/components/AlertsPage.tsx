import { ALERT_CATEGORIES, ALERT_STATES, type AlertCategory, type AlertsQuery } from '@flowbox/shared';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { Select } from '../../../components/Select.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import type { AlertFilters } from '../api/alerts.ts';
import { AlertList } from './AlertList.tsx';

const STATES = ['active', ...ALERT_STATES] as const;
type StateFilter = (typeof STATES)[number];

/** The filters live in the address, so a filtered view can be shared and the back button works. */
function useFilters(): [AlertFilters, (patch: Record<string, string | undefined>) => void] {
  const [params, setParams] = useSearchParams();
  const category = params.get('category');
  const state = params.get('state');
  const filters: AlertFilters = {
    state: (STATES as readonly string[]).includes(state ?? '') ? (state as StateFilter) : 'active',
    ...(category && (ALERT_CATEGORIES as readonly string[]).includes(category)
      ? { category: category as AlertCategory }
      : {}),
    ...(params.get('zone_id') ? { zone_id: params.get('zone_id')! } : {}),
    ...(params.get('building_id') ? { building_id: params.get('building_id')! } : {}),
    ...(params.get('site_id') ? { site_id: params.get('site_id')! } : {}),
    ...(params.get('from') ? { from: params.get('from')! } : {}),
    ...(params.get('to') ? { to: params.get('to')! } : {}),
  } satisfies Partial<AlertsQuery>;
  const update = (patch: Record<string, string | undefined>) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        for (const [key, value] of Object.entries(patch)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        return next;
      },
      { replace: true },
    );
  return [filters, update];
}

/** Notifications and alerts (spec §2 "notifications and alerts"): filters by category, zone, state and dates. */
export function AlertsPage() {
  const { t } = useLanguage();
  const [filters, update] = useFilters();
  const [params] = useSearchParams();
  const scoped = filters.zone_id ?? filters.building_id ?? filters.site_id;
  return (
    <>
      <PageHeader title={t('alerts.title')} description={t('alerts.description')} />
      <section aria-label={t('alerts.filters')} className="mb-5 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
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
        <TextField
          label={t('alerts.filter.from')}
          name="from"
          type="date"
          value={filters.from ?? ''}
          onChange={(event) => update({ from: event.target.value || undefined })}
        />
        <TextField
          label={t('alerts.filter.to')}
          name="to"
          type="date"
          value={filters.to ?? ''}
          onChange={(event) => update({ to: event.target.value || undefined })}
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
