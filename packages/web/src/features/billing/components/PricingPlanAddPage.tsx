import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { useCreatePricingPlan } from '../api/create-pricing-plan.ts';
import { toPlanInput } from '../plan-form.ts';
import { browserToday } from '../today.ts';
import { PricingPlanForm } from './PricingPlanForm.tsx';

export function PricingPlanAddPage() {
  const { t } = useLanguage();
  const navigate = useNavigate();
  const toast = useToast();
  const create = useCreatePricingPlan();
  return (
    <>
      <PageHeader
        title={t('billing.add_plan')}
        breadcrumbs={[
          { label: t('billing.title'), to: paths.subscriptions.getHref() },
          { label: t('billing.plans'), to: paths.pricingPlans.getHref() },
        ]}
      />
      <PricingPlanForm
        today={browserToday()}
        submitLabel={t('billing.create_plan')}
        cancelTo={paths.pricingPlans.getHref()}
        onSubmit={async (values) => {
          await create.mutateAsync(toPlanInput(values));
          toast.success(t('billing.plan_added'));
          await navigate(paths.pricingPlans.getHref());
        }}
      />
    </>
  );
}
