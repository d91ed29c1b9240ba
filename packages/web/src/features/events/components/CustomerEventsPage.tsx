import { ROLES } from '@flowbox/shared';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useRequiredParam } from '../../../lib/params.ts';
import { paths } from '../../../paths.ts';
import { useUser } from '../../auth/index.ts';
import { useCustomer } from '../../customers/index.ts';
import { ActivityLog } from './ActivityLog.tsx';

/** spec §2: the customer's activity log, for provider and customer managers. */
export function CustomerEventsPage() {
  const { t } = useLanguage();
  const user = useUser();
  const customerId = useRequiredParam('customerId');
  const customer = useCustomer(customerId);
  const crumbs = [{ label: customer.data?.name ?? '…', to: paths.customer.getHref(customerId) }];
  if (user.role === ROLES.flovea_manager)
    crumbs.unshift({ label: t('customers.title'), to: paths.customers.getHref() });
  return (
    <>
      <PageHeader
        title={t('events.title')}
        description={t('events.description_customer')}
        breadcrumbs={crumbs}
      />
      <ActivityLog scope={{ level: 'customer', customerId }} />
    </>
  );
}
