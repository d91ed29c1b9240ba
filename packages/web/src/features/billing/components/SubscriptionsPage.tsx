import type { SubscriptionsOverview } from '@flowbox/shared';
import { Card } from '../../../components/Card.tsx';
import { DataTable, type Column } from '../../../components/DataTable.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { SectionLink } from '../../../components/SectionLink.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { useSubscriptionsOverview } from '../api/get-subscriptions-overview.ts';

type PlanLine = SubscriptionsOverview['plans'][number];

/** spec §2 /subscriptions: plans, subscriptions and zones subscribed, for the provider. */
export function SubscriptionsPage() {
  const { t } = useLanguage();
  const overview = useSubscriptionsOverview();
  const columns: Column<PlanLine>[] = [
    {
      key: 'name',
      header: t('fields.name'),
      rowHeader: true,
      cell: (p) => (p.is_default ? `${p.name} (${t('billing.default')})` : p.name),
    },
    { key: 'subscriptions', header: t('billing.zones_subscribed'), cell: (p) => p.subscription_count },
    { key: 'premium', header: t('billing.premium_count'), cell: (p) => p.premium_count },
  ];
  return (
    <>
      <PageHeader title={t('billing.title')} description={t('billing.description')} />
      <QueryBoundary query={overview}>
        {(data) => (
          <div className="space-y-6">
            <div className="grid grid-cols-2 gap-4 md:grid-cols-4">
              {[
                [t('billing.plan_count'), data.plan_count],
                [t('billing.subscription_count'), data.active_subscription_count],
                [t('billing.premium_count'), data.premium_subscription_count],
                [t('billing.zone_count'), data.zone_count],
              ].map(([label, value]) => (
                <Card key={String(label)}>
                  <p className="text-sm text-slate-600 dark:text-slate-400">{label}</p>
                  <p className="text-2xl font-semibold">{value}</p>
                </Card>
              ))}
            </div>
            <SectionLink
              to={paths.pricingPlans.getHref()}
              title={t('billing.manage_plans')}
              detail={t('common.labelled', {
                label: t('billing.archived_plan_count'),
                value: data.archived_plan_count,
              })}
            />
            <DataTable
              caption={t('billing.plans')}
              columns={columns}
              rows={data.plans}
              rowKey={(p) => p.id}
              empty={t('billing.no_plans')}
            />
          </div>
        )}
      </QueryBoundary>
    </>
  );
}
