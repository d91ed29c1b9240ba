import type { ReactNode } from 'react';

/** A count of active filters as a small badge; `label` is what a screen reader hears instead. */
export function CountBadge({ count, label }: { count: number; label?: string }) {
  if (count === 0) return null;
  return (
    <span className="rounded-full bg-sky-100 px-2 py-0.5 text-xs font-medium text-sky-800 dark:bg-sky-900/50 dark:text-sky-200">
      <span aria-hidden={label ? true : undefined}>{count}</span>
      {label && <span className="sr-only">{label}</span>}
    </span>
  );
}

type FoldButtonProps = {
  open: boolean;
  /** The id of the region it shows and hides. */
  controls: string;
  onToggle: () => void;
  className: string;
  children: ReactNode;
};

/**
 * The button that folds a region away on phones (a list's filters, so the list comes first): a
 * turning chevron, the expanded state and the region it controls said to assistive technology.
 */
export function FoldButton({ open, controls, onToggle, className, children }: FoldButtonProps) {
  return (
    <button
      type="button"
      className={className}
      aria-expanded={open}
      aria-controls={controls}
      onClick={onToggle}
    >
      <svg
        viewBox="0 0 20 20"
        aria-hidden="true"
        className={`h-4 w-4 transition-transform ${open ? 'rotate-90' : ''}`}
        fill="currentColor"
      >
        <path d="M7 4l6 6-6 6z" />
      </svg>
      {children}
    </button>
  );
}
