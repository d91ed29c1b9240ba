import { Link } from 'react-router';
import { Card } from '../../../components/Card.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { AlertList } from './AlertList.tsx';

type Scope = { zone_id: string } | { building_id: string } | { site_id: string } | Record<string, never>;

/** The open alerts of a zone, building or site (or all of the caller's) on an overview, live. */
export function OpenAlertsCard({ scope, name }: { scope: Scope; name?: string }) {
  const { t } = useLanguage();
  const query = new URLSearchParams({ ...scope, ...(name ? { name } : {}) }).toString();
  return (
    <Card
      title={t('alerts.open_section')}
      actions={
        <Link
          to={`${paths.alerts.getHref()}${query ? `?${query}` : ''}`}
          className="text-sm text-sky-700 underline focus-visible:outline-2 focus-visible:outline-sky-600 dark:text-sky-400"
        >
          {t('alerts.see_all')}
        </Link>
      }
    >
      <AlertList filters={{ ...scope, state: 'active' }} pageSize={5} emptyTitle={t('alerts.open_none')} />
    </Card>
  );
}
