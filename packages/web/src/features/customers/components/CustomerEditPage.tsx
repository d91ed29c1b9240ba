import { ROLES } from '@flowbox/shared';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { useRequiredParam } from '../../../lib/params.ts';
import { paths } from '../../../paths.ts';
import { useUser } from '../../auth/index.ts';
import { useCustomer } from '../api/get-customer.ts';
import { useUpdateCustomer } from '../api/update-customer.ts';
import { CustomerForm } from './CustomerForm.tsx';
import { CustomerLogo } from './CustomerLogo.tsx';

export function CustomerEditPage() {
  const { t } = useTranslation();
  const customerId = useRequiredParam('customerId');
  const user = useUser();
  const navigate = useNavigate();
  const toast = useToast();
  const customer = useCustomer(customerId);
  const update = useUpdateCustomer(customerId);
  const crumbs = [
    ...(user.role === ROLES.flovea_manager
      ? [{ label: t('customers.title'), to: paths.customers.getHref() }]
      : []),
    { label: customer.data?.name ?? '…', to: paths.customer.getHref(customerId) },
  ];
  return (
    <>
      <PageHeader title={t('customers.edit')} breadcrumbs={crumbs} />
      <QueryBoundary query={customer}>
        {(data) => (
          <div className="space-y-6">
            <CustomerForm
              mode="edit"
              customer={data}
              contactsOnly={user.role !== ROLES.flovea_manager}
              cancelTo={paths.customer.getHref(customerId)}
              onSubmit={async (values) => {
                await update.mutateAsync(values);
                toast.success(t('toast.customer_updated'));
                await navigate(paths.customer.getHref(customerId));
              }}
            />
            {/* The logo is saved on its own, at once: the form's Save does not send it. */}
            <CustomerLogo customer={data} />
          </div>
        )}
      </QueryBoundary>
    </>
  );
}
