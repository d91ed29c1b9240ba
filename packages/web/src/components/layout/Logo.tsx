/** The brand; `compact` keeps only the drop on phones, where the header is narrow. */
export function Logo({ className = '', compact = false }: { className?: string; compact?: boolean }) {
  return (
    <span className={`inline-flex items-center gap-2 font-bold tracking-tight ${className}`}>
      <svg viewBox="0 0 32 32" aria-hidden="true" className="h-8 w-8 shrink-0">
        <rect width="32" height="32" rx="8" className="fill-sky-700 dark:fill-sky-500" />
        <path
          d="M16 6c-4.2 5.4-7 9.3-7 12.6A7 7 0 0 0 16 26a7 7 0 0 0 7-7.4C23 15.3 20.2 11.4 16 6z"
          fill="#fff"
        />
      </svg>
      <span className={compact ? 'sr-only sm:not-sr-only' : ''}>Flowbox Manager</span>
    </span>
  );
}
