import { useCallback, useState } from 'react';
import { ButtonLink } from '../../../components/Button.tsx';
import { DataTable, Pagination, type Column } from '../../../components/DataTable.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { SearchField } from '../../../components/SearchField.tsx';
import { Alert } from '../../../components/Alert.tsx';
import { LoadingState } from '../../../components/Spinner.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import type { Customer } from '@flowbox/shared';
import { useCustomers } from '../api/list-customers.ts';
import { customerColumns } from './customer-columns.tsx';

const PAGE_SIZE = 20;

export function CustomersPage() {
  const { t, language } = useLanguage();
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  const customers = useCustomers({ search, limit: PAGE_SIZE, offset });
  const onSearch = useCallback((text: string) => {
    setSearch(text);
    setOffset(0);
  }, []);

  const columns: Column<Customer>[] = [
    ...customerColumns(t),
    {
      key: 'subscription',
      header: t('fields.subscription_date'),
      hideOnMobile: true,
      cell: (c) => formatDate(c.subscription_date, language),
    },
    {
      key: 'created',
      header: t('fields.created_at'),
      hideOnMobile: true,
      cell: (c) => formatDate(c.created_at, language),
    },
  ];

  return (
    <>
      <PageHeader
        title={t('customers.title')}
        description={t('customers.description')}
        actions={<ButtonLink to={paths.customerAdd.getHref()}>{t('customers.add')}</ButtonLink>}
      />
      <SearchField label={t('customers.search')} onSearch={onSearch} />
      {customers.isPending ? (
        <LoadingState />
      ) : customers.isError ? (
        <Alert title={t('dialog.error')}>{customers.error.message}</Alert>
      ) : (
        <>
          <DataTable
            caption={t('customers.title')}
            columns={columns}
            rows={customers.data.items}
            rowKey={(c) => c.id}
            empty={search ? t('common.no_results') : t('customers.empty')}
          />
          <Pagination offset={offset} limit={PAGE_SIZE} total={customers.data.total} onChange={setOffset} />
        </>
      )}
    </>
  );
}
