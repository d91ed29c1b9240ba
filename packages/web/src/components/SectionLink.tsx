import { Link } from 'react-router';

/** A card-sized link to a sub-screen of a record (its managers, its activity log...). */
export function SectionLink({ to, title, detail }: { to: string; title: string; detail: string }) {
  return (
    <Link
      to={to}
      className="block rounded-xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-sky-400 hover:shadow focus-visible:outline-2 focus-visible:outline-sky-600 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-sky-600"
    >
      <span className="block font-semibold text-sky-800 dark:text-sky-300">{title}</span>
      <span className="mt-1 block text-sm text-slate-600 dark:text-slate-400">{detail}</span>
    </Link>
  );
}
