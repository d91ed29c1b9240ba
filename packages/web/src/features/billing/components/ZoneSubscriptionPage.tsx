import { zodResolver } from '@hookform/resolvers/zod';
import {
  SERVICE_LEVELS,
  SubscriptionChoiceSchema,
  type Subscription,
  type SubscriptionChoice,
  type ZoneSubscription,
} from '@flowbox/shared';
import { useForm, useWatch } from 'react-hook-form';
import { Alert } from '../../../components/Alert.tsx';
import { Button } from '../../../components/Button.tsx';
import { Card, DescriptionList } from '../../../components/Card.tsx';
import { DataTable, type Column } from '../../../components/DataTable.tsx';
import { FormActions } from '../../../components/FormActions.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { Select } from '../../../components/Select.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { useFormSubmit } from '../../../lib/forms.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useRequiredParam } from '../../../lib/params.ts';
import { paths } from '../../../paths.ts';
import { canDo, FLOVEA_OR_CUSTOMER, useUser } from '../../auth/index.ts';
import { useChooseZoneSubscription } from '../api/choose-zone-subscription.ts';
import { useZoneSubscription } from '../api/get-zone-subscription.ts';
import type { ZoneRef } from '../../../lib/zone-ref.ts';
import { PlanPrices } from './PlanPrices.tsx';

/** spec §2 …/zone/{zoneId}/subscription: what the zone has, had, and may choose. */
export function ZoneSubscriptionPage() {
  const { t } = useLanguage();
  const zone: ZoneRef = {
    customerId: useRequiredParam('customerId'),
    siteId: useRequiredParam('siteId'),
    buildingId: useRequiredParam('buildingId'),
    zoneId: useRequiredParam('zoneId'),
  };
  const subscription = useZoneSubscription(zone);
  return (
    <>
      <PageHeader
        title={t('billing.subscription')}
        description={t('billing.subscription_description')}
        breadcrumbs={[
          {
            label: t('event.object_name.zone'),
            to: paths.zone.getHref(zone.customerId, zone.siteId, zone.buildingId, zone.zoneId),
          },
        ]}
      />
      <QueryBoundary query={subscription}>
        {(data) => <ZoneSubscriptionView zone={zone} data={data} />}
      </QueryBoundary>
    </>
  );
}

function ZoneSubscriptionView({ zone, data }: { zone: ZoneRef; data: ZoneSubscription }) {
  const { t, language } = useLanguage();
  const user = useUser();
  // A subscription is the customer's commitment: site managers read it (docs/billing.md).
  const mayChoose = canDo(user, FLOVEA_OR_CUSTOMER, 'subscriptions.manage');
  const past = data.history.filter((s) => s.status === 'ended');
  const currentPrices = data.available_plans.find((p) => p.id === data.current?.pricing_plan_id)?.prices;
  const columns: Column<Subscription>[] = [
    { key: 'plan', header: t('billing.field.plan'), rowHeader: true, cell: (s) => s.pricing_plan_name },
    {
      key: 'level',
      header: t('billing.field.service_level'),
      cell: (s) => t(`billing.service_level.${s.service_level}`),
    },
    { key: 'start', header: t('billing.start_date'), cell: (s) => formatDate(s.start_date, language) },
    { key: 'end', header: t('billing.end_date'), cell: (s) => formatDate(s.end_date, language) },
  ];
  return (
    <div className="space-y-6">
      <Card title={t('billing.current')}>
        {data.current ? (
          <DescriptionList
            items={[
              { label: t('billing.field.plan'), value: data.current.pricing_plan_name },
              {
                label: t('billing.field.service_level'),
                value: t(`billing.service_level.${data.current.service_level}`),
              },
              {
                label: t('billing.field.billing_type'),
                value: t(`billing.billing_type.${data.current.billing_type}`),
              },
              ...(currentPrices
                ? [{ label: t('billing.field.price'), value: <PlanPrices prices={currentPrices} /> }]
                : []),
              { label: t('billing.start_date'), value: formatDate(data.current.start_date, language) },
              { label: t('billing.renewal_date'), value: formatDate(data.current.renewal_date, language) },
            ]}
          />
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-400">{t('billing.none')}</p>
        )}
      </Card>
      {data.available_plans.length === 0 ? (
        <Alert title={t('billing.no_plans_title')}>
          {t('billing.no_plans_text', { country: data.country })}{' '}
          {data.contact_email && (
            <a href={`mailto:${data.contact_email}`} className="font-medium underline">
              {t('billing.contact')}
            </a>
          )}
        </Alert>
      ) : mayChoose ? (
        <ChooseForm zone={zone} data={data} />
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-400">{t('billing.read_only')}</p>
      )}
      {past.length > 0 && (
        <Card title={t('billing.history')}>
          <DataTable
            caption={t('billing.history')}
            columns={columns}
            rows={past}
            rowKey={(s) => s.id}
            empty=""
          />
        </Card>
      )}
    </div>
  );
}

function ChooseForm({ zone, data }: { zone: ZoneRef; data: ZoneSubscription }) {
  const { t } = useLanguage();
  const toast = useToast();
  const choose = useChooseZoneSubscription(zone);
  const preferred = data.available_plans.find((p) => p.is_default) ?? data.available_plans[0];
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors, isSubmitting },
  } = useForm<SubscriptionChoice>({
    resolver: zodResolver(SubscriptionChoiceSchema),
    defaultValues: {
      pricing_plan_id: data.current?.pricing_plan_id ?? preferred?.id ?? '',
      service_level: data.current?.service_level ?? 'basic',
    },
  });
  const chosenId = useWatch({ control, name: 'pricing_plan_id' });
  const chosen = data.available_plans.find((p) => p.id === chosenId);
  const { submit, failure } = useFormSubmit(
    { handleSubmit, setError },
    ['pricing_plan_id', 'service_level'],
    async (values) => {
      await choose.mutateAsync(values);
      toast.success(t('billing.chosen'));
    },
  );
  return (
    <Card title={data.current ? t('billing.change') : t('billing.choose')}>
      <form onSubmit={submit} noValidate className="space-y-4">
        {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
        <p className="text-sm text-slate-600 dark:text-slate-400">{t('billing.choose_hint')}</p>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <Select
            label={t('billing.field.plan')}
            required
            options={data.available_plans.map((p) => ({
              value: p.id,
              label: p.is_default ? `${p.name} (${t('billing.default')})` : p.name,
            }))}
            error={errors.pricing_plan_id}
            {...register('pricing_plan_id')}
          />
          <Select
            label={t('billing.field.service_level')}
            required
            options={SERVICE_LEVELS.map((level) => ({
              value: level,
              label: t(`billing.service_level.${level}`),
            }))}
            error={errors.service_level}
            {...register('service_level')}
          />
        </div>
        {chosen && <PlanPrices prices={chosen.prices} />}
        <p className="text-sm text-slate-600 dark:text-slate-400">{t('billing.service_level_hint')}</p>
        <FormActions>
          <Button type="submit" loading={isSubmitting}>
            {data.current ? t('billing.change') : t('billing.choose')}
          </Button>
        </FormActions>
      </form>
    </Card>
  );
}
