import type { ReactNode } from 'react';

/** One labelled fact of a card; an empty value (null, undefined, '') leaves its line out. */
export type CardField = { key: string; label: string; value: ReactNode };

type CardListProps<T> = {
  /** What the list is (the table's caption on wider screens). */
  label: string;
  rows: readonly T[];
  rowKey: (row: T) => string;
  /** The card's first line: the row's name, as the table's row header. */
  title: (row: T) => ReactNode;
  /** Beside the title, on the right: a state (connection, status). */
  aside?: (row: T) => ReactNode;
  /** Under the title: a line of context (where it is, an email). */
  summary?: (row: T) => ReactNode;
  fields: (row: T) => CardField[];
  /** At the card's foot: the row's buttons and links. */
  actions?: (row: T) => ReactNode;
};

const isEmpty = (value: ReactNode) =>
  value === null || value === undefined || value === '' || value === false;

/**
 * Phones (below md, 768 px): one card per row, its facts as labelled pairs and its actions at its
 * foot, where a table would make the reader scroll sideways to reach them. Shown below md only; the
 * page shows its table from md up.
 */
export function CardList<T>({
  label,
  rows,
  rowKey,
  title,
  aside,
  summary,
  fields,
  actions,
}: CardListProps<T>) {
  return (
    <ul aria-label={label} data-card-list className="space-y-3 md:hidden">
      {rows.map((row) => {
        const facts = fields(row).filter((field) => !isEmpty(field.value));
        const buttons = actions?.(row);
        const context = summary?.(row);
        return (
          <li
            key={rowKey(row)}
            className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 text-sm shadow-sm dark:border-slate-800 dark:bg-slate-900"
          >
            <div className="flex items-start justify-between gap-3">
              <div className="min-w-0 font-medium break-words">{title(row)}</div>
              {aside?.(row)}
            </div>
            {!isEmpty(context) && (
              <div className="mt-1 break-words text-slate-600 dark:text-slate-300">{context}</div>
            )}
            {facts.length > 0 && (
              <dl className="mt-2 divide-y divide-slate-100 dark:divide-slate-800">
                {facts.map((field) => (
                  <div key={field.key} className="flex justify-between gap-3 py-1">
                    {/* The label takes two fifths, wrapping if long; the value the rest, at its right, broken anywhere if it must. */}
                    <dt className="w-2/5 shrink-0 text-slate-500 dark:text-slate-400">{field.label}</dt>
                    <dd className="flex min-w-0 flex-1 justify-end text-right [overflow-wrap:anywhere]">
                      {field.value}
                    </dd>
                  </div>
                ))}
              </dl>
            )}
            {!isEmpty(buttons) && <div className="mt-3">{buttons}</div>}
          </li>
        );
      })}
    </ul>
  );
}
