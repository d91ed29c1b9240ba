/** The grey shape of a graph while it loads; screen readers hear the status given by the caller. */
export function ChartSkeleton({ height, label }: { height: number; label?: string }) {
  return (
    <div
      role={label ? 'status' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      style={{ height }}
      className="flex w-full animate-pulse items-end gap-2 rounded-lg bg-slate-50 p-4 dark:bg-slate-800/40"
    >
      {[40, 65, 30, 80, 55, 70, 45, 60].map((percent, index) => (
        <span
          key={index}
          style={{ height: `${percent}%` }}
          className="flex-1 rounded-t bg-slate-200 dark:bg-slate-700"
        />
      ))}
    </div>
  );
}
