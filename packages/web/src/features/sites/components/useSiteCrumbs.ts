import { ROLES } from '@flowbox/shared';
import { useTranslation } from 'react-i18next';
import type { Crumb } from '../../../components/PageHeader.tsx';
import { paths } from '../../../paths.ts';
import { useUser } from '../../auth/index.ts';
import { useCustomer } from '../../customers/index.ts';

/** Customer › Sites breadcrumbs; site managers and plumbers do not see the customer record, so theirs start at Sites. */
export function useSiteCrumbs(customerId: string): Crumb[] {
  const { t } = useTranslation();
  const user = useUser();
  const seesCustomer = user.role !== ROLES.site_manager && user.role !== ROLES.plumber;
  const customer = useCustomer(customerId, { enabled: seesCustomer });
  const crumbs: Crumb[] = [];
  if (user.role === ROLES.flovea_manager)
    crumbs.push({ label: t('customers.title'), to: paths.customers.getHref() });
  if (seesCustomer)
    crumbs.push({ label: customer.data?.name ?? '…', to: paths.customer.getHref(customerId) });
  crumbs.push({ label: t('sites.title'), to: paths.sites.getHref(customerId) });
  return crumbs;
}
