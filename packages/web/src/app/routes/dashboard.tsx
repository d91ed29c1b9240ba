import { OpenAlertsCard } from '../../features/alerts/widgets.ts';
import { ComparisonText } from '../../features/consumption/widgets.ts';
import { customerColumns } from '../../features/customers/widgets.ts';
import { DashboardPage } from '../../features/dashboard/pages.ts';
import { SitesTable } from '../../features/sites/widgets.ts';
import { useLanguage } from '../../lib/i18n/index.ts';

/** The home: today's figures, the open alerts, and the customers, sites or zones the user looks after. */
export function DashboardRoute() {
  const { t } = useLanguage();
  return (
    <DashboardPage
      widgets={{
        openAlerts: () => <OpenAlertsCard scope={{}} />,
        customerColumns,
        sitesTable: (customerId, sites) => (
          <SitesTable customerId={customerId} sites={sites} empty={t('sites.empty')} />
        ),
        comparison: (comparison) => <ComparisonText comparison={comparison} />,
      }}
    />
  );
}
