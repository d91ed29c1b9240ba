import { ROLES } from '@flowbox/shared';
import { useTranslation } from 'react-i18next';
import type { Crumb } from '../../components/PageHeader.tsx';
import { useRequiredParam } from '../../lib/params.ts';
import { paths } from '../../paths.ts';
import { useUser } from '../auth/index.ts';
import type { ManagerFamilyPages } from '../managers/index.ts';
import { useCustomer } from './api/get-customer.ts';

/** A customer's managers: their pages sit under the customer. */
export const CUSTOMER_MANAGERS: ManagerFamilyPages = {
  name: 'customer_managers',
  usePlace() {
    const { t } = useTranslation();
    const customerId = useRequiredParam('customerId');
    const user = useUser();
    const customer = useCustomer(customerId);
    const crumbs: Crumb[] = [
      ...(user.role === ROLES.flovea_manager
        ? [{ label: t('customers.title'), to: paths.customers.getHref() }]
        : []),
      { label: customer.data?.name ?? '…', to: paths.customer.getHref(customerId) },
    ];
    return {
      family: { role: ROLES.customer_manager, customerId },
      crumbs,
      listHref: paths.customerManagers.getHref(customerId),
      addHref: paths.customerManagerAdd.getHref(customerId),
      editHref: (id) => paths.customerManagerEdit.getHref(customerId, id),
      permissionsHref: (id) => paths.customerManagerPermissions.getHref(customerId, id),
    };
  },
};
