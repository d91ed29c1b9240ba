import { useTranslation } from 'react-i18next';
import type { Crumb } from '../../../components/PageHeader.tsx';
import { useRequiredParam } from '../../../lib/params.ts';
import { paths } from '../../../paths.ts';
import { useUser } from '../../auth/index.ts';
import { useCustomer } from '../../customers/index.ts';
import {
  ManagerAddPage,
  ManagerEditPage,
  ManagerPermissionsPage,
  ManagersListPage,
  type ManagerFamily,
} from '../../managers/index.ts';

function useCustomerManagersContext() {
  const { t } = useTranslation();
  const customerId = useRequiredParam('customerId');
  const user = useUser();
  const customer = useCustomer(customerId);
  const family: ManagerFamily = { role: 2, customerId };
  const crumbs: Crumb[] = [
    ...(user.role === 1 ? [{ label: t('customers.title'), to: paths.customers.getHref() }] : []),
    { label: customer.data?.name ?? '…', to: paths.customer.getHref(customerId) },
  ];
  const listHref = paths.customerManagers.getHref(customerId);
  return { t, customerId, family, crumbs, listHref };
}

export function CustomerManagersPage() {
  const { t, customerId, family, crumbs } = useCustomerManagersContext();
  return (
    <ManagersListPage
      family={family}
      title={t('customer_managers.title')}
      description={t('customer_managers.description')}
      breadcrumbs={crumbs}
      addHref={paths.customerManagerAdd.getHref(customerId)}
      editHref={(id) => paths.customerManagerEdit.getHref(customerId, id)}
      permissionsHref={(id) => paths.customerManagerPermissions.getHref(customerId, id)}
    />
  );
}

export function CustomerManagerAddPage() {
  const { t, family, crumbs, listHref } = useCustomerManagersContext();
  return (
    <ManagerAddPage
      family={family}
      listHref={listHref}
      breadcrumbs={[...crumbs, { label: t('customer_managers.title'), to: listHref }]}
    />
  );
}

export function CustomerManagerEditPage() {
  const { t, family, crumbs, listHref } = useCustomerManagersContext();
  const managerId = useRequiredParam('customerManagerId');
  return (
    <ManagerEditPage
      family={family}
      managerId={managerId}
      listHref={listHref}
      breadcrumbs={[...crumbs, { label: t('customer_managers.title'), to: listHref }]}
    />
  );
}

export function CustomerManagerPermissionsPage() {
  const { t, family, crumbs, listHref } = useCustomerManagersContext();
  const managerId = useRequiredParam('customerManagerId');
  return (
    <ManagerPermissionsPage
      family={family}
      managerId={managerId}
      listHref={listHref}
      breadcrumbs={[...crumbs, { label: t('customer_managers.title'), to: listHref }]}
    />
  );
}
