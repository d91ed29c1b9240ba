import { Button } from '../../../components/Button.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';

/** "Previous" and "Next" over the keyset pages, with the page's number. */
export function FleetPager({
  pageNumber,
  nextCursor,
  stale,
  onPrevious,
  onNext,
}: {
  /** From 1. */
  pageNumber: number;
  /** Undefined while the next page is not known, or on the last page. */
  nextCursor: string | undefined;
  /** The page shown is the previous filters' while the new one loads: no "Next" from it. */
  stale: boolean;
  onPrevious: () => void;
  onNext: (cursor: string) => void;
}) {
  const { t } = useLanguage();
  if (pageNumber <= 1 && !nextCursor) return null;
  return (
    <nav aria-label={t('fleet.page')} className="mt-4 flex items-center justify-between gap-2 text-sm">
      <p className="text-slate-600 dark:text-slate-400">{t('fleet.page_number', { page: pageNumber })}</p>
      <div className="flex gap-2">
        <Button variant="secondary" disabled={pageNumber <= 1} onClick={onPrevious}>
          {t('fleet.previous')}
        </Button>
        <Button
          variant="secondary"
          disabled={!nextCursor || stale}
          onClick={() => nextCursor && onNext(nextCursor)}
        >
          {t('fleet.next')}
        </Button>
      </div>
    </nav>
  );
}
