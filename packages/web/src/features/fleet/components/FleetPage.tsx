import { Button } from '../../../components/Button.tsx';
import { EmptyState } from '../../../components/EmptyState.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { ANY_ROLE, canDo, useUser } from '../../auth/index.ts';
import { useDownloadFleetCsv } from '../api/download-fleet-csv.ts';
import { useFleetPage } from '../api/list-fleet.ts';
import { FleetCards } from './FleetCards.tsx';
import { FleetFilters } from './FleetFilters.tsx';
import { FleetPager } from './FleetPager.tsx';
import { FleetTable } from './FleetTable.tsx';
import { useFleetCursors } from './useFleetCursors.ts';
import { useFleetFilters } from './useFleetFilters.ts';

/** The fleet at a glance (issue #18): every flowbox in the user's scope, filtered, sorted, paged. */
export function FleetPage() {
  const { t } = useLanguage();
  const [filters, update] = useFleetFilters();
  const pages = useFleetCursors(filters);
  const page = useFleetPage(filters, pages.cursor);
  // The total comes with the first page (cached once fetched).
  const first = useFleetPage(filters, undefined);
  const total = first.data?.total ?? null;
  const download = useDownloadFleetCsv();
  // docs/fleet.md: the export needs consumption.export; the list does not.
  const user = useUser();
  const mayExport = canDo(user, ANY_ROLE, 'consumption.export');
  const filtered = Object.keys(filters).some((k) => k !== 'sort' && k !== 'dir');
  return (
    <>
      <PageHeader
        title={t('fleet.title')}
        description={t('fleet.description')}
        actions={
          mayExport && (
            <Button variant="secondary" loading={download.isPending} onClick={() => download.mutate(filters)}>
              {t('fleet.export')}
            </Button>
          )
        }
      />
      {download.isError && (
        <p role="alert" className="mb-3 text-sm text-red-700 dark:text-red-400">
          {t('fleet.export_failed')}
        </p>
      )}
      <FleetFilters filters={filters} update={update} />
      <p
        aria-live="polite"
        className="mb-2 flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400"
      >
        {total !== null && t('fleet.total', { count: total })}
        {page.isFetching && <Spinner size="sm" />}
      </p>
      {/* A failure or a refusal is told as such: "no flowbox matches" is only for an empty answer. */}
      <QueryBoundary query={page}>
        {(data) =>
          data.items.length === 0 ? (
            <EmptyState title={filtered ? t('fleet.empty') : t('fleet.empty_none')} />
          ) : (
            <>
              <FleetTable rows={data.items} filters={filters} />
              <FleetCards rows={data.items} />
            </>
          )
        }
      </QueryBoundary>
      <FleetPager
        pageNumber={pages.pageNumber}
        nextCursor={page.data?.next_cursor ?? undefined}
        stale={page.isPlaceholderData}
        onPrevious={pages.previous}
        onNext={pages.next}
      />
    </>
  );
}
