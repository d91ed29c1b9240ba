import type { Customer } from '@flowbox/shared';
import { Link } from 'react-router';
import type { Column } from '../../../components/DataTable.tsx';
import type { TFunction } from 'i18next';
import { paths } from '../../../paths.ts';

/** The columns every table of customers starts with: the name (a link to the customer) and its counts. */
export function customerColumns(t: TFunction): Column<Customer>[] {
  return [
    {
      key: 'name',
      header: t('fields.name'),
      rowHeader: true,
      cell: (c) => (
        <Link to={paths.customer.getHref(c.id)} className="text-sky-700 hover:underline dark:text-sky-400">
          {c.name}
        </Link>
      ),
    },
    { key: 'sites', header: t('customers.site_count'), cell: (c) => c.site_count },
    { key: 'flowboxes', header: t('customers.flowbox_count'), cell: (c) => c.flowbox_count },
  ];
}
