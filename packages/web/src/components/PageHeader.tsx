import { Fragment, useEffect, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';

export type Crumb = { label: string; to: string };

/** Sets the tab title to the page's name. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Flowbox Manager` : 'Flowbox Manager';
  }, [title]);
}

type PageHeaderProps = {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  breadcrumbs?: Crumb[];
  /**
   * The header keeps to a few lines whatever the names' lengths (up to NAME_MAX): the title to two,
   * the description to one, cut with an ellipsis (a screen reader still reads them whole). For a
   * page whose first screen must hold what matters (the resident's home during a leak).
   */
  compact?: boolean;
};

export function PageHeader({ title, description, actions, breadcrumbs, compact = false }: PageHeaderProps) {
  const { t } = useTranslation();
  useDocumentTitle(title);
  return (
    <header className="mb-4 sm:mb-6">
      {breadcrumbs && breadcrumbs.length > 0 && (
        <nav aria-label={t('nav.breadcrumbs')} className="mb-2 text-sm text-slate-500 dark:text-slate-400">
          <ol className="flex flex-wrap items-center gap-1">
            {breadcrumbs.map((crumb, index) => (
              <Fragment key={crumb.to}>
                {index > 0 && <li aria-hidden="true">/</li>}
                <li>
                  <Link to={crumb.to} className="hover:text-sky-700 hover:underline dark:hover:text-sky-400">
                    {crumb.label}
                  </Link>
                </li>
              </Fragment>
            ))}
          </ol>
        </nav>
      )}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h1
            className={`text-2xl font-bold tracking-tight break-words ${compact ? 'line-clamp-2' : ''}`}
            title={compact ? title : undefined}
          >
            {title}
          </h1>
          {description && (
            <div className={`mt-1 text-sm text-slate-600 dark:text-slate-400 ${compact ? 'truncate' : ''}`}>
              {description}
            </div>
          )}
        </div>
        {actions && <div className="flex shrink-0 flex-wrap gap-2">{actions}</div>}
      </div>
    </header>
  );
}
