import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useRequiredParam } from '../../../lib/params.ts';
import { paths } from '../../../paths.ts';
import { usePricingPlan } from '../api/get-pricing-plan.ts';
import { useUpdatePricingPlan } from '../api/update-pricing-plan.ts';
import { toPlanUpdate } from '../plan-form.ts';
import { browserToday } from '../today.ts';
import { PricingPlanForm } from './PricingPlanForm.tsx';
import { VersionHistory } from './VersionHistory.tsx';

export function PricingPlanEditPage() {
  const { t, language } = useLanguage();
  const planId = useRequiredParam('pricingPlanId');
  const navigate = useNavigate();
  const toast = useToast();
  const plan = usePricingPlan(planId);
  const update = useUpdatePricingPlan(planId);
  return (
    <QueryBoundary query={plan}>
      {(data) => (
        <>
          <PageHeader
            title={t('billing.edit_plan')}
            description={t('billing.created_on', { date: formatDate(data.created_at, language) })}
            breadcrumbs={[
              { label: t('billing.title'), to: paths.subscriptions.getHref() },
              { label: t('billing.plans'), to: paths.pricingPlans.getHref() },
            ]}
          />
          <div className="space-y-6">
            <PricingPlanForm
              key={`${data.id}-${data.version}`}
              plan={data}
              today={browserToday()}
              submitLabel={t('billing.save_plan')}
              cancelTo={paths.pricingPlans.getHref()}
              onSubmit={async (values) => {
                await update.mutateAsync(toPlanUpdate(data, values));
                toast.success(t('billing.plan_updated'));
                await navigate(paths.pricingPlans.getHref());
              }}
            />
            <VersionHistory versions={data.versions} />
          </div>
        </>
      )}
    </QueryBoundary>
  );
}
