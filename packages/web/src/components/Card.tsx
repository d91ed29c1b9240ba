import type { ReactNode } from 'react';

export function Card({
  title,
  actions,
  headingId,
  children,
}: {
  title?: string;
  actions?: ReactNode;
  /** Given, the card is a landmark region named by its title (for a card people jump to). */
  headingId?: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={title && headingId ? headingId : undefined}
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      {(title || actions) && (
        <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
          {title && (
            <h2 id={headingId} className="text-base font-semibold">
              {title}
            </h2>
          )}
          {actions}
        </div>
      )}
      {children}
    </section>
  );
}

/** Label/value pairs of a record. */
export function DescriptionList({ items }: { items: readonly { label: string; value: ReactNode }[] }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-4 sm:grid-cols-2">
      {items.map((item) => (
        <div key={item.label}>
          <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">
            {item.label}
          </dt>
          <dd className="mt-1 text-sm break-words">{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
