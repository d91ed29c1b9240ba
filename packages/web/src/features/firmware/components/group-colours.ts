import type { StateGroup } from '../format.ts';

/** One colour per state group, the same in the wave bars, their legend and the chart. */
export const GROUP_COLOURS: Record<StateGroup, { light: string; dark: string; className: string }> = {
  waiting: { light: '#cbd5e1', dark: '#475569', className: 'bg-slate-300 dark:bg-slate-600' },
  running: { light: '#0284c7', dark: '#38bdf8', className: 'bg-sky-600 dark:bg-sky-400' },
  success: { light: '#059669', dark: '#34d399', className: 'bg-emerald-600 dark:bg-emerald-400' },
  failed: { light: '#dc2626', dark: '#f87171', className: 'bg-red-600 dark:bg-red-400' },
  left_out: { light: '#d97706', dark: '#fbbf24', className: 'bg-amber-600 dark:bg-amber-400' },
};
