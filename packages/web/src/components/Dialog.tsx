import { useEffect, useId, useRef, type ReactNode } from 'react';

type DialogProps = {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  tone?: 'default' | 'danger';
  /** Wide: for a dialog that shows a comparison or a table (up to 56rem). */
  wide?: boolean;
};

/**
 * A modal dialog on the native <dialog>: showModal() makes the rest of the page inert (so focus
 * stays inside) and Escape closes it; focus returns to where it was.
 */
export function Dialog({ open, title, onClose, children, tone = 'default', wide = false }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      const previous = document.activeElement as HTMLElement | null;
      dialog.showModal();
      return () => {
        dialog.close();
        previous?.focus();
      };
    }
  }, [open]);

  return (
    <dialog
      ref={ref}
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      className={`m-auto w-[calc(100%-2rem)] ${wide ? 'max-w-4xl' : 'max-w-lg'} rounded-xl border border-slate-200 bg-white p-0 text-slate-900 shadow-2xl backdrop:bg-slate-950/50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100`}
    >
      {open && (
        <div className="p-6">
          <h2
            id={titleId}
            className={`text-lg font-semibold ${tone === 'danger' ? 'text-red-700 dark:text-red-400' : ''}`}
          >
            {title}
          </h2>
          <div className="mt-3">{children}</div>
        </div>
      )}
    </dialog>
  );
}
