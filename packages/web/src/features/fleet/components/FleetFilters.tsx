import { FLEET_SORT_DIRECTIONS, FLEET_SORTS, FLOWBOX_MODELS } from '@flowbox/shared';
import { useCallback } from 'react';
import { Button } from '../../../components/Button.tsx';
import { Select } from '../../../components/Select.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import type { FleetFilters as Filters } from '../api/list-fleet.ts';
import { FirmwareFilter, SerialSearch } from './TextFilters.tsx';
import { CLEARED_FILTERS, CONTINUOUS_FLOW_DAYS, FLAGS, type FiltersUpdate } from './useFleetFilters.ts';

/** The list's filters and sort, each change written to the address (useFleetFilters). */
export function FleetFilters({ filters, update }: { filters: Filters; update: FiltersUpdate }) {
  const { t } = useLanguage();
  const onSearch = useCallback((q: string) => update({ q: q || undefined }), [update]);
  const onFirmware = (version: string) => update({ firmware_version: version || undefined });
  const filtered = Object.keys(filters).some((k) => k !== 'sort' && k !== 'dir');
  return (
    <section
      aria-label={t('fleet.filters')}
      className="mb-4 grid gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <SerialSearch value={filters.q ?? ''} onSearch={onSearch} />
      <FirmwareFilter value={filters.firmware_version ?? ''} onApply={onFirmware} />
      <Select
        label={t('fleet.filter.model')}
        name="model"
        value={filters.model ?? ''}
        placeholder={t('fleet.filter.all_models')}
        onChange={(event) => update({ model: event.target.value || undefined })}
        options={FLOWBOX_MODELS.map((m) => ({ value: m, label: t(`zones.flowbox_model.${m}`) }))}
      />
      <Select
        label={t('fleet.filter.connection')}
        name="offline"
        value={filters.offline ?? ''}
        placeholder={t('fleet.filter.any_connection')}
        onChange={(event) => update({ offline: event.target.value || undefined })}
        options={[
          { value: 'false', label: t('fleet.connection.connected') },
          { value: 'true', label: t('fleet.filter.offline') },
        ]}
      />
      <Select
        label={t('fleet.filter.continuous_flow')}
        name="continuous_flow_days"
        value={filters.continuous_flow_days === undefined ? '' : String(filters.continuous_flow_days)}
        placeholder={t('fleet.filter.any_flow')}
        onChange={(event) => update({ continuous_flow_days: event.target.value || undefined })}
        options={CONTINUOUS_FLOW_DAYS.map((days) => ({
          value: days,
          label: t('fleet.filter.continuous_flow_days', { count: Number(days) }),
        }))}
      />
      <Select
        label={t('fleet.sort')}
        name="sort"
        value={filters.sort ?? 'serial'}
        onChange={(event) =>
          update({ sort: event.target.value === 'serial' ? undefined : event.target.value })
        }
        options={FLEET_SORTS.map((s) => ({ value: s, label: t(`fleet.sort.${s}`) }))}
      />
      <Select
        label={t('fleet.dir')}
        name="dir"
        value={filters.dir ?? 'asc'}
        onChange={(event) => update({ dir: event.target.value === 'desc' ? 'desc' : undefined })}
        options={FLEET_SORT_DIRECTIONS.map((d) => ({ value: d, label: t(`fleet.dir.${d}`) }))}
      />
      <fieldset className="flex flex-wrap items-center gap-x-4 gap-y-2 sm:col-span-2 lg:col-span-4">
        <legend className="sr-only">{t('fleet.filters')}</legend>
        {FLAGS.map((flag) => (
          <label key={flag} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              name={flag}
              checked={filters[flag] === 'true'}
              onChange={(event) => update({ [flag]: event.target.checked ? 'true' : undefined })}
              className="size-4 rounded border-slate-300 text-sky-700 focus-visible:outline-2 focus-visible:outline-sky-600"
            />
            {t(`fleet.filter.${flag}`)}
          </label>
        ))}
        {filtered && (
          <Button
            variant="ghost"
            onClick={() => update(Object.fromEntries(CLEARED_FILTERS.map((k) => [k, undefined])))}
          >
            {t('fleet.filter.clear')}
          </Button>
        )}
      </fieldset>
    </section>
  );
}
