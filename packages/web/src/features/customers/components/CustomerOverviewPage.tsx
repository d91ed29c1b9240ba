import { ROLES, type Contact, type Customer } from '@flowbox/shared';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Button, ButtonLink } from '../../../components/Button.tsx';
import { Card, DescriptionList } from '../../../components/Card.tsx';
import { ConfirmDeleteDialog } from '../../../components/ConfirmDeleteDialog.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { SectionLink } from '../../../components/SectionLink.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useRequiredParam } from '../../../lib/params.ts';
import { paths } from '../../../paths.ts';
import { ANY_ROLE, canDo, useUser } from '../../auth/index.ts';
import { useDeleteCustomer } from '../api/delete-customer.ts';
import { useCustomer } from '../api/get-customer.ts';
import { CustomerLogo } from './CustomerLogo.tsx';

function ContactCard({ title, contact }: { title: string; contact: Contact | null }) {
  const { t } = useLanguage();
  const empty = !contact || (!contact.name && !contact.email && !contact.phone);
  return (
    <div className="rounded-lg border border-slate-200 p-4 dark:border-slate-800">
      <h3 className="text-sm font-semibold">{title}</h3>
      {empty ? (
        <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">{t('customers.no_contact')}</p>
      ) : (
        <ul className="mt-2 space-y-1 text-sm break-words">
          {contact.name && <li>{contact.name}</li>}
          {contact.email && (
            <li>
              <a href={`mailto:${contact.email}`} className="text-sky-700 hover:underline dark:text-sky-400">
                {contact.email}
              </a>
            </li>
          )}
          {contact.phone && <li>{contact.phone}</li>}
        </ul>
      )}
    </div>
  );
}

/** What other features lend a customer's page, composed by the app (app/routes/customers.tsx). */
export type CustomerOverviewWidgets = { consumption: (customer: Customer) => ReactNode };

function CustomerOverview({ customer, widgets }: { customer: Customer; widgets: CustomerOverviewWidgets }) {
  const { t, language } = useLanguage();
  const user = useUser();
  const navigate = useNavigate();
  const toast = useToast();
  const [deleting, setDeleting] = useState(false);
  const remove = useDeleteCustomer(customer.id);
  const isFlovea = user.role === ROLES.flovea_manager;

  return (
    <>
      <PageHeader
        title={customer.name}
        description={t('customers.overview')}
        breadcrumbs={isFlovea ? [{ label: t('customers.title'), to: paths.customers.getHref() }] : undefined}
        actions={
          <>
            <ButtonLink to={paths.customerEdit.getHref(customer.id)} variant="secondary">
              {t('common.edit')}
            </ButtonLink>
            {isFlovea && (
              <Button variant="danger" onClick={() => setDeleting(true)}>
                {t('common.delete')}
              </Button>
            )}
          </>
        }
      />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <SectionLink
          to={paths.sites.getHref(customer.id)}
          title={t('sites.title')}
          detail={t('customers.sites_detail', { count: customer.site_count })}
        />
        <SectionLink
          to={paths.customerManagers.getHref(customer.id)}
          title={t('customer_managers.title')}
          detail={t('customer_managers.description')}
        />
        <SectionLink
          to={paths.customerReports.getHref(customer.id)}
          title={t('reports.title')}
          detail={t('reports.section_detail')}
        />
        {canDo(user, ANY_ROLE, 'end_users.manage') && (
          <SectionLink
            to={paths.endUsers.getHref(customer.id)}
            title={t('nav.people')}
            detail={t('end_users.description')}
          />
        )}
        <SectionLink
          to={paths.customerEvents.getHref(customer.id)}
          title={t('events.title')}
          detail={t('events.description_customer')}
        />
        <SectionLink
          to={paths.customerWebhooks.getHref(customer.id)}
          title={t('webhooks.title')}
          detail={t('webhooks.section_detail')}
        />
      </div>
      <div className="mt-6 space-y-6">
        {widgets.consumption(customer)}
        <Card title={t('customers.section_general')}>
          <DescriptionList
            items={[
              { label: t('fields.name'), value: customer.name },
              {
                label: t('fields.subscription_date'),
                value: formatDate(customer.subscription_date, language),
              },
              { label: t('customers.site_count'), value: customer.site_count },
              { label: t('customers.flowbox_count'), value: customer.flowbox_count },
              { label: t('fields.created_at'), value: formatDate(customer.created_at, language) },
            ]}
          />
        </Card>
        <CustomerLogo customer={customer} />
        <Card title={t('customers.contacts')}>
          <div className="grid grid-cols-1 gap-4 md:grid-cols-3">
            <ContactCard title={t('customers.operations_contact')} contact={customer.operations_contact} />
            <ContactCard title={t('customers.technical_contact')} contact={customer.technical_contact} />
            <ContactCard
              title={t('customers.administrative_contact')}
              contact={customer.administrative_contact}
            />
          </div>
        </Card>
      </div>
      {isFlovea && (
        <ConfirmDeleteDialog
          open={deleting}
          onClose={() => setDeleting(false)}
          name={customer.name}
          consequence={t('customers.delete_consequence')}
          onConfirm={async (confirmName) => {
            await remove.mutateAsync(confirmName);
            setDeleting(false);
            toast.success(t('toast.customer_deleted'));
            await navigate(paths.customers.getHref());
          }}
        />
      )}
    </>
  );
}

export function CustomerOverviewPage({ widgets }: { widgets: CustomerOverviewWidgets }) {
  const customerId = useRequiredParam('customerId');
  const customer = useCustomer(customerId);
  return (
    <QueryBoundary query={customer}>
      {(data) => <CustomerOverview customer={data} widgets={widgets} />}
    </QueryBoundary>
  );
}
