import { EVENT_OBJECTS, EventsQuerySchema, type EventObject } from '@flowbox/shared';
import type { FieldError } from 'react-hook-form';
import { useAddressQuery } from '../../../lib/params.ts';
import { Alert } from '../../../components/Alert.tsx';
import { Button } from '../../../components/Button.tsx';
import { EmptyState } from '../../../components/EmptyState.tsx';
import { LoadingState } from '../../../components/Spinner.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useEvents, type EventsFilters } from '../api/list-events.ts';
import type { EventsScope } from '../scope.ts';
import { EventFilters, FILTER_NAMES, type FilterName, type FilterValues } from './EventFilters.tsx';
import { EventLine } from './EventLine.tsx';
import { useEventAuthors } from './useEventAuthors.ts';

/** What a log at each level can speak of, for the object filter. */
const OBJECTS_BY_LEVEL: Record<EventsScope['level'], readonly EventObject[]> = {
  customer: EVENT_OBJECTS,
  site: ['site', 'building', 'floor', 'zone', 'water_point', 'site_manager'],
  building: ['building', 'floor', 'zone', 'water_point'],
  zone: ['zone', 'water_point'],
};

/**
 * Reads the filters from the address (so a filtered log can be shared or revisited) and checks
 * them with the API's own schema. A filter that fails (an end date before the start) shows its
 * message and is left out of the query rather than sent to be refused.
 */
function useFiltersFromAddress() {
  const [params, patch] = useAddressQuery();
  const values: FilterValues = {};
  for (const name of FILTER_NAMES) {
    const value = params.get(name);
    if (value) values[name] = value;
  }
  const parsed = EventsQuerySchema.safeParse(values);
  const errors: Partial<Record<FilterName, FieldError>> = {};
  for (const issue of parsed.error?.issues ?? []) {
    const name = issue.path[0] as FilterName;
    errors[name] = { type: 'validate', message: issue.message };
  }
  const applied = Object.fromEntries(
    Object.entries(values).filter(([name]) => !errors[name as FilterName]),
  ) as EventsFilters;

  const change = (name: FilterName, value: string) => patch({ [name]: value || undefined });
  const clear = () => patch(new URLSearchParams());
  return { values, errors, applied, change, clear };
}

/** An activity log (spec §2 events screens): newest first, filterable, older events on demand. */
export function ActivityLog({ scope }: { scope: EventsScope }) {
  const { t } = useLanguage();
  const { values, errors, applied, change, clear } = useFiltersFromAddress();
  const { authors } = useEventAuthors(scope);
  const events = useEvents(scope, applied);
  const filtered = Object.keys(applied).length > 0;
  const items = events.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <>
      <EventFilters
        values={values}
        errors={errors}
        objects={OBJECTS_BY_LEVEL[scope.level]}
        authors={authors}
        onChange={change}
        onClear={clear}
      />
      <section aria-labelledby="events-title" aria-busy={events.isFetching || undefined}>
        <h2 id="events-title" className="sr-only">
          {t('events.list')}
        </h2>
        {events.isPending ? (
          <LoadingState />
        ) : items.length === 0 && events.isError ? (
          <Alert title={t('dialog.error')}>{events.error.message}</Alert>
        ) : items.length === 0 ? (
          <EmptyState title={filtered ? t('events.empty_filtered') : t('events.empty')} />
        ) : (
          <>
            <ol
              className={`divide-y divide-slate-100 overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm transition-opacity dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900 ${
                events.isPlaceholderData ? 'opacity-60' : ''
              }`}
            >
              {items.map((event) => (
                <EventLine key={event.id} event={event} />
              ))}
            </ol>
            <div className="mt-4 flex flex-col items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
              <p aria-live="polite">{t('events.shown', { count: items.length })}</p>
              {events.isFetchNextPageError && (
                <Alert title={t('dialog.error')}>{events.error?.message}</Alert>
              )}
              {events.hasNextPage ? (
                <Button
                  variant="secondary"
                  loading={events.isFetchingNextPage}
                  onClick={() => void events.fetchNextPage()}
                >
                  {t('events.load_more')}
                </Button>
              ) : (
                (events.data?.pages.length ?? 0) > 1 && <p>{t('events.end')}</p>
              )}
            </div>
          </>
        )}
      </section>
    </>
  );
}
