import type { ReactNode } from 'react';

export type TableRow = { key: string; cells: ReactNode[] };

/**
 * The figures of a graph as a table: always read by screen readers; shown on screen when the
 * user asks ("Show as table").
 */
export function ConsumptionTable({
  id,
  caption,
  headers,
  rows,
  visible,
}: {
  id: string;
  caption: string;
  headers: string[];
  rows: TableRow[];
  visible: boolean;
}) {
  return (
    <div id={id} className={visible ? 'mt-4 overflow-x-auto' : 'sr-only'}>
      <table className="min-w-full text-sm">
        <caption className="mb-2 text-left text-xs text-slate-500 dark:text-slate-400">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-200 dark:border-slate-700">
            {headers.map((header, index) => (
              <th
                key={header}
                scope="col"
                className={`px-3 py-2 font-medium text-slate-600 dark:text-slate-300 ${index === 0 ? 'text-left' : 'text-right'}`}
              >
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} className="border-b border-slate-100 last:border-0 dark:border-slate-800">
              {row.cells.map((cell, index) =>
                index === 0 ? (
                  <th key={index} scope="row" className="px-3 py-1.5 text-left font-normal">
                    {cell}
                  </th>
                ) : (
                  <td key={index} className="px-3 py-1.5 text-right tabular-nums">
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
