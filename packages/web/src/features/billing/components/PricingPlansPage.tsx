import type { PricingPlan } from '@flowbox/shared';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button, ButtonLink } from '../../../components/Button.tsx';
import { ConfirmDeleteDialog } from '../../../components/ConfirmDeleteDialog.tsx';
import { DataTable, type Column } from '../../../components/DataTable.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { useDeletePricingPlan } from '../api/delete-pricing-plan.ts';
import { usePricingPlans } from '../api/list-pricing-plans.ts';
import { RangesSummary } from './RangesSummary.tsx';

/** spec §2 /subscriptions/pricing-plans: the provider's plans, current or archived. */
export function PricingPlansPage() {
  const { t, language } = useLanguage();
  const toast = useToast();
  const [archived, setArchived] = useState(false);
  const plans = usePricingPlans(archived);
  const remove = useDeletePricingPlan();
  const [deleting, setDeleting] = useState<PricingPlan | null>(null);

  const columns: Column<PricingPlan>[] = [
    {
      key: 'name',
      header: t('fields.name'),
      rowHeader: true,
      cell: (plan) => (
        <Link
          to={paths.pricingPlanEdit.getHref(plan.id)}
          className="text-sky-700 hover:underline dark:text-sky-400"
        >
          {plan.name}
          {plan.is_default && <span className="ml-2 text-xs text-slate-500">({t('billing.default')})</span>}
        </Link>
      ),
    },
    { key: 'regions', header: t('billing.field.regions'), cell: (plan) => plan.regions.join(', ') },
    {
      key: 'price',
      header: t('billing.section_ranges'),
      hideOnMobile: true,
      cell: (plan) => <RangesSummary plan={plan} />,
    },
    {
      key: 'billing',
      header: t('billing.field.billing_type'),
      hideOnMobile: true,
      cell: (plan) => t(`billing.billing_type.${plan.billing_type}`),
    },
    {
      key: 'from',
      header: t('billing.field.from_date'),
      hideOnMobile: true,
      cell: (p) => formatDate(p.from_date, language),
    },
    {
      key: 'subscriptions',
      header: t('billing.subscription_count'),
      cell: (plan) => plan.subscription_count,
    },
    {
      key: 'actions',
      header: t('common.actions'),
      cell: (plan) =>
        plan.archived_at === null && (
          <Button
            variant="secondary"
            className="px-3 py-1"
            onClick={() => setDeleting(plan)}
            aria-label={`${t('common.delete')}: ${plan.name}`}
          >
            {t('common.delete')}
          </Button>
        ),
    },
  ];

  return (
    <>
      <PageHeader
        title={t('billing.plans')}
        description={t('billing.plans_description')}
        breadcrumbs={[{ label: t('billing.title'), to: paths.subscriptions.getHref() }]}
        actions={<ButtonLink to={paths.pricingPlanAdd.getHref()}>{t('billing.add_plan')}</ButtonLink>}
      />
      <div className="mb-4">
        <Button variant="secondary" onClick={() => setArchived(!archived)}>
          {archived ? t('billing.show_current') : t('billing.show_archived')}
        </Button>
      </div>
      <QueryBoundary query={plans}>
        {(data) => (
          <DataTable
            caption={t('billing.plans')}
            columns={columns}
            rows={data.items}
            rowKey={(plan) => plan.id}
            empty={t('billing.no_plans')}
          />
        )}
      </QueryBoundary>
      {deleting && (
        <ConfirmDeleteDialog
          open
          name={deleting.name}
          consequence={t('billing.delete_consequence')}
          onClose={() => setDeleting(null)}
          onConfirm={async (confirmName) => {
            const result = await remove.mutateAsync({ planId: deleting.id, confirmName });
            toast.success(result.archived ? t('billing.plan_archived') : t('billing.plan_deleted'));
            setDeleting(null);
          }}
        />
      )}
    </>
  );
}
