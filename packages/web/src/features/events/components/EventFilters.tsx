import { EVENT_ACTIONS, EVENT_ORIGINS, isBackendDate, type EventObject, type User } from '@flowbox/shared';
import { useState } from 'react';
import type { FieldError } from 'react-hook-form';
import { Button } from '../../../components/Button.tsx';
import { DateField } from '../../../components/DateField.tsx';
import { CountBadge, FoldButton } from '../../../components/FoldButton.tsx';
import { Select } from '../../../components/Select.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';

export const FILTER_NAMES = ['action_name', 'object_name', 'user_id', 'origin', 'from', 'to'] as const;
export type FilterName = (typeof FILTER_NAMES)[number];
export type FilterValues = Partial<Record<FilterName, string>>;

type EventFiltersProps = {
  values: FilterValues;
  errors: Partial<Record<FilterName, FieldError>>;
  objects: readonly EventObject[];
  /** Empty when the reader may not list the people of this customer: no user filter then. */
  authors: readonly User[];
  onChange: (name: FilterName, value: string) => void;
  onClear: () => void;
};

/** The four facets of spec §3 and a date range; each change applies at once. */
export function EventFilters({ values, errors, objects, authors, onChange, onClear }: EventFiltersProps) {
  const { t } = useLanguage();
  const all = t('events.filter_all');
  const selectProps = (name: FilterName) => ({
    name,
    value: values[name] ?? '',
    placeholder: all,
    error: errors[name],
    onChange: (event: { target: { value: string } }) => onChange(name, event.target.value),
  });
  const dateProps = (name: FilterName) => ({
    name,
    value: values[name],
    error: errors[name],
    // The log follows a date box once it names a day, or once it is emptied; half-typed text waits.
    onChange: (value: string) => {
      if (value === '' || isBackendDate(value)) onChange(name, value);
    },
  });
  const activeCount = FILTER_NAMES.filter((name) => values[name]).length;
  // On phones the filters fold away behind their title, so the log itself comes first.
  const [unfolded, setUnfolded] = useState(Object.keys(errors).length > 0);

  return (
    <section
      aria-labelledby="event-filters-title"
      className="mb-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex items-center justify-between gap-2 sm:mb-4">
        <h2 id="event-filters-title" className="text-base font-semibold">
          <FoldButton
            open={unfolded}
            controls="event-filters-fields"
            onToggle={() => setUnfolded((open) => !open)}
            className="flex items-center gap-2 rounded focus-visible:outline-2 focus-visible:outline-sky-600 sm:hidden"
          >
            {t('events.filters')}
            <CountBadge count={activeCount} />
          </FoldButton>
          <span className="hidden items-center gap-2 sm:flex">
            {t('events.filters')}
            <CountBadge count={activeCount} />
          </span>
        </h2>
        {activeCount > 0 && (
          <Button variant="ghost" onClick={onClear} className="px-2 py-1">
            {t('events.clear_filters')}
          </Button>
        )}
      </div>
      <div
        id="event-filters-fields"
        className={`${unfolded ? 'mt-4 grid' : 'hidden'} grid-cols-1 gap-4 sm:mt-0 sm:grid sm:grid-cols-2 lg:grid-cols-3`}
      >
        <Select
          label={t('events.filter_action')}
          options={EVENT_ACTIONS.map((action) => ({
            value: action,
            label: t(`event.action_name.${action}`),
          }))}
          {...selectProps('action_name')}
        />
        <Select
          label={t('events.filter_object')}
          options={objects.map((object) => ({ value: object, label: t(`event.object_name.${object}`) }))}
          {...selectProps('object_name')}
        />
        {authors.length > 0 && (
          <Select
            label={t('events.filter_user')}
            options={authors.map((author) => ({
              value: author.id,
              label: `${author.firstname} ${author.lastname} (${t(`role.${author.role_name}`)})`,
            }))}
            {...selectProps('user_id')}
          />
        )}
        <Select
          label={t('events.filter_origin')}
          options={EVENT_ORIGINS.map((origin) => ({ value: origin, label: t(`event.origin.${origin}`) }))}
          {...selectProps('origin')}
        />
        <DateField label={t('events.filter_from')} {...dateProps('from')} />
        <DateField label={t('events.filter_to')} {...dateProps('to')} />
      </div>
    </section>
  );
}
