import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { paths } from '../../../paths.ts';
import { useCreateCustomer } from '../api/create-customer.ts';
import { CustomerForm } from './CustomerForm.tsx';

export function CustomerAddPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const toast = useToast();
  const create = useCreateCustomer();
  return (
    <>
      <PageHeader
        title={t('customers.add')}
        breadcrumbs={[{ label: t('customers.title'), to: paths.customers.getHref() }]}
      />
      <CustomerForm
        mode="create"
        cancelTo={paths.customers.getHref()}
        onSubmit={async (values) => {
          const customer = await create.mutateAsync({ ...values, name: values.name ?? '' });
          toast.success(t('toast.customer_created'));
          await navigate(paths.customer.getHref(customer.id));
        }}
      />
    </>
  );
}
