import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './Button.tsx';
import { CardList } from './CardList.tsx';
import { EmptyState } from './EmptyState.tsx';
import { TableScroll } from './TableScroll.tsx';

export type Column<T> = {
  key: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** Hidden on phones to keep the table readable. */
  hideOnMobile?: boolean;
  /** The row's header cell (its name), for screen readers; a phone card's title. */
  rowHeader?: boolean;
  /** The row's buttons and links: at the foot of a phone card, without a label. */
  actions?: boolean;
};

type DataTableProps<T> = {
  caption: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  empty: string;
  /**
   * On phones, one card per row (CardList) instead of the table: for lists whose rows carry
   * actions, which a table too wide for a phone puts out of reach behind a sideways scroll.
   */
  phoneCards?: boolean;
};

/**
 * A semantic table: caption, column headers with scope, one row header per row; it scrolls in its
 * box (TableScroll), or gives way to cards on phones (`phoneCards`).
 */
export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  empty,
  phoneCards = false,
}: DataTableProps<T>) {
  if (rows.length === 0) return <EmptyState title={empty} />;
  const table = (
    <TableScroll
      label={caption}
      className={`overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900 ${
        phoneCards ? 'hidden md:block' : ''
      }`}
    >
      <table className="min-w-full divide-y divide-slate-200 text-sm dark:divide-slate-800">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 dark:bg-slate-800/60">
          <tr>
            {columns.map((column) => (
              <th
                key={column.key}
                scope="col"
                className={`px-4 py-3 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-300 ${
                  column.hideOnMobile ? 'hidden md:table-cell' : ''
                }`}
              >
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {rows.map((row) => (
            <tr key={rowKey(row)} className="hover:bg-slate-50 dark:hover:bg-slate-800/40">
              {columns.map((column) => {
                const className = `px-4 py-3 align-middle ${column.hideOnMobile ? 'hidden md:table-cell' : ''}`;
                return column.rowHeader ? (
                  <th key={column.key} scope="row" className={`${className} min-w-36 text-left font-medium`}>
                    {column.cell(row)}
                  </th>
                ) : (
                  <td key={column.key} className={className}>
                    {column.cell(row)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
  if (!phoneCards) return table;
  const title = columns.find((column) => column.rowHeader) ?? columns[0]!;
  const facts = columns.filter((column) => column !== title && !column.actions);
  const actions = columns.filter((column) => column.actions);
  return (
    <>
      {table}
      <CardList
        label={caption}
        rows={rows}
        rowKey={rowKey}
        title={title.cell}
        fields={(row) =>
          facts.map((column) => ({ key: column.key, label: column.header, value: column.cell(row) }))
        }
        actions={(row) => {
          const cells = actions
            .map((column) => [column.key, column.cell(row)] as const)
            .filter(([, cell]) => cell !== null && cell !== undefined && cell !== false);
          return cells.length > 0 ? cells.map(([key, cell]) => <div key={key}>{cell}</div>) : null;
        }}
      />
    </>
  );
}

type PaginationProps = { offset: number; limit: number; total: number; onChange: (offset: number) => void };

export function Pagination({ offset, limit, total, onChange }: PaginationProps) {
  const { t } = useTranslation();
  if (total <= limit) return null;
  const from = offset + 1;
  const to = Math.min(offset + limit, total);
  return (
    <nav aria-label={t('table.pagination')} className="mt-4 flex items-center justify-between gap-2 text-sm">
      <p className="text-slate-600 dark:text-slate-400">{t('table.range', { from, to, total })}</p>
      <div className="flex gap-2">
        <Button
          variant="secondary"
          disabled={offset === 0}
          onClick={() => onChange(Math.max(0, offset - limit))}
        >
          {t('table.previous')}
        </Button>
        <Button variant="secondary" disabled={to >= total} onClick={() => onChange(offset + limit)}>
          {t('table.next')}
        </Button>
      </div>
    </nav>
  );
}
