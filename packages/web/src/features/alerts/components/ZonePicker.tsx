import type { ZoneSummary } from '@flowbox/shared';
import { useId, useState } from 'react';
import { INPUT_CLASS } from '../../../components/TextField.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';

/** Beyond this many zones, a search box narrows the list. */
const SEARCH_FROM = 8;

/** "Site · Building": the group a zone is listed under. */
const placeOf = (zone: ZoneSummary) => `${zone.site_name} · ${zone.building_name}`;

function matches(zone: ZoneSummary, text: string): boolean {
  const needle = text.toLocaleLowerCase();
  return [zone.name, zone.building_name, zone.site_name].some((s) => s.toLocaleLowerCase().includes(needle));
}

/**
 * A zone chosen among the zones the user may see: a native select, grouped by site and building
 * (keyboard and screen readers know it), with a search box above it when there are many zones.
 */
export function ZonePicker({
  zones,
  value,
  onChange,
  label,
  allLabel,
  className = '',
}: {
  zones: readonly ZoneSummary[];
  value: string;
  onChange: (zoneId: string) => void;
  label: string;
  /** The empty choice ("All zones"). */
  allLabel: string;
  className?: string;
}) {
  const { t } = useLanguage();
  const id = useId();
  const [search, setSearch] = useState('');
  const shown = zones.filter((zone) => zone.id === value || !search || matches(zone, search));
  const groups = new Map<string, ZoneSummary[]>();
  for (const zone of shown) groups.set(placeOf(zone), [...(groups.get(placeOf(zone)) ?? []), zone]);
  const hidden = zones.length - shown.length;
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-800 dark:text-slate-200">
        {label}
      </label>
      {zones.length > SEARCH_FROM && (
        <input
          type="search"
          aria-label={t('alerts.zone_search')}
          aria-controls={id}
          placeholder={t('alerts.zone_search')}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          className={`${INPUT_CLASS} mb-2`}
        />
      )}
      <select
        id={id}
        name="zone_id"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={search ? `${id}-count` : undefined}
        className={INPUT_CLASS}
      >
        <option value="">{allLabel}</option>
        {[...groups].map(([place, inPlace]) => (
          <optgroup key={place} label={place}>
            {inPlace.map((zone) => (
              <option key={zone.id} value={zone.id}>
                {zone.name}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
      {search && (
        <p id={`${id}-count`} role="status" className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          {t('alerts.zone_search_count', { count: shown.length, hidden })}
        </p>
      )}
    </div>
  );
}
