import { useId, useState, type ReactNode } from 'react';
import { Button } from '../../../components/Button.tsx';
import { TableScroll } from '../../../components/TableScroll.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';

export type TableRow = { key: string; cells: ReactNode[] };

type ConsumptionTableProps = {
  caption: string;
  headers: string[];
  rows: TableRow[];
  /** Shown left of the toggle (the graph's time zone). */
  note?: ReactNode;
};

/**
 * The figures of a graph as a table, under its "Show as table" toggle: always read by screen
 * readers; shown on screen when the user asks.
 */
export function ConsumptionTable({ caption, headers, rows, note }: ConsumptionTableProps) {
  const { t } = useLanguage();
  const [visible, setVisible] = useState(false);
  const id = useId();
  return (
    <>
      <div
        className={note ? 'mt-3 flex flex-wrap items-center justify-between gap-2' : 'mt-3 flex justify-end'}
      >
        {note}
        <Button
          variant="ghost"
          aria-controls={id}
          aria-pressed={visible}
          onClick={() => setVisible((shown) => !shown)}
        >
          {visible ? t('consumption.hide_table') : t('consumption.show_table')}
        </Button>
      </div>
      <div id={id} className={visible ? 'mt-4' : 'sr-only'}>
        <TableScroll label={caption}>
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
        </TableScroll>
      </div>
    </>
  );
}
