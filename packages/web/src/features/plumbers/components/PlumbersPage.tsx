import { PLUMBER_SPECIALITIES, ROLES, type Plumber, type User } from '@flowbox/shared';
import { useCallback, useState } from 'react';
import { Button, ButtonLink } from '../../../components/Button.tsx';
import { ConfirmDeleteDialog } from '../../../components/ConfirmDeleteDialog.tsx';
import { DataTable, type Column } from '../../../components/DataTable.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { SearchField } from '../../../components/SearchField.tsx';
import { Select } from '../../../components/Select.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { canDo, FLOVEA_OR_CUSTOMER, useUser } from '../../auth/index.ts';
import { useDeletePlumber } from '../api/delete-plumber.ts';
import { usePlumbers } from '../api/list-plumbers.ts';
import { telHref } from '../tel.ts';

const PAGE = 50;
const LINK = 'text-sky-700 hover:underline dark:text-sky-400';

/** docs/maps.md: customer managers manage their customer's entries, provider managers every entry. */
export function canManagePlumber(user: User, plumber: Pick<Plumber, 'customer_id'> | null): boolean {
  if (!canDo(user, FLOVEA_OR_CUSTOMER, 'sites.manage')) return false;
  if (user.role === ROLES.flovea_manager) return true;
  return plumber === null || plumber.customer_id === user.customer_id;
}

/** The plumber directory: search, filters, pages; add, edit and delete where the user may (issue 18). */
export function PlumbersPage() {
  const { t } = useLanguage();
  const user = useUser();
  const toast = useToast();
  const [search, setSearch] = useState('');
  const [speciality, setSpeciality] = useState('');
  const [owner, setOwner] = useState('');
  const [offset, setOffset] = useState(0);
  const [deleting, setDeleting] = useState<Plumber | null>(null);
  const plumbers = usePlumbers({ search, speciality, owner, limit: PAGE, offset });
  const remove = useDeletePlumber();
  const onSearch = useCallback((text: string) => {
    setSearch(text);
    setOffset(0);
  }, []);

  const columns: Column<Plumber>[] = [
    {
      key: 'company',
      header: t('plumbers.company'),
      rowHeader: true,
      cell: (p) => (
        <span>
          <span className="font-medium">{p.company}</span>
          {p.contact_name && (
            <span className="block text-xs text-slate-600 dark:text-slate-400">{p.contact_name}</span>
          )}
        </span>
      ),
    },
    {
      key: 'phone',
      header: t('plumbers.phone'),
      cell: (p) =>
        p.phone ? (
          <a
            href={telHref(p.phone)}
            className={`${LINK} whitespace-nowrap`}
            aria-label={t('plumbers.call_phone', { name: p.company, phone: p.phone })}
          >
            {p.phone}
          </a>
        ) : null,
    },
    {
      key: 'specialities',
      header: t('plumbers.specialities'),
      hideOnMobile: true,
      cell: (p) => p.specialities.map((s) => t(`plumbers.speciality.${s}`)).join(', '),
    },
    {
      key: 'area',
      header: t('plumbers.service_radius'),
      hideOnMobile: true,
      cell: (p) =>
        p.service_radius_km === null ? '' : t('plumbers.service_radius_value', { km: p.service_radius_km }),
    },
    {
      key: 'owner',
      header: t('plumbers.owner'),
      hideOnMobile: true,
      cell: (p) => p.customer_name ?? t('plumbers.owner.shared'),
    },
    {
      key: 'actions',
      header: t('common.actions'),
      actions: true,
      cell: (p) =>
        canManagePlumber(user, p) ? (
          <span className="flex flex-wrap gap-2">
            <ButtonLink to={paths.plumberEdit.getHref(p.id)} variant="secondary" className="px-3 py-1">
              {t('common.edit')}
              <span className="sr-only">: {p.company}</span>
            </ButtonLink>
            <Button variant="danger" className="px-3 py-1" onClick={() => setDeleting(p)}>
              {t('common.delete')}
              <span className="sr-only">: {p.company}</span>
            </Button>
          </span>
        ) : null,
    },
  ];

  return (
    <>
      <PageHeader
        title={t('plumbers.title')}
        description={t('plumbers.description')}
        actions={
          <span className="flex flex-wrap gap-2">
            <ButtonLink to={paths.plumbersMap.getHref()} variant="secondary">
              {t('plumbers.map')}
            </ButtonLink>
            {canManagePlumber(user, null) && (
              <ButtonLink to={paths.plumberAdd.getHref()}>{t('plumbers.add')}</ButtonLink>
            )}
          </span>
        }
      />
      <SearchField label={t('plumbers.search')} hint={t('plumbers.search_hint')} onSearch={onSearch} />
      <div className="mb-4 grid gap-4 sm:grid-cols-2" role="group" aria-label={t('plumbers.filters')}>
        <Select
          label={t('plumbers.filter.speciality')}
          name="speciality"
          placeholder={t('plumbers.filter.all_specialities')}
          value={speciality}
          onChange={(e) => {
            setSpeciality(e.target.value);
            setOffset(0);
          }}
          options={PLUMBER_SPECIALITIES.map((s) => ({ value: s, label: t(`plumbers.speciality.${s}`) }))}
        />
        <Select
          label={t('plumbers.filter.owner')}
          name="owner"
          placeholder={t('plumbers.filter.all_owners')}
          value={owner}
          onChange={(e) => {
            setOwner(e.target.value);
            setOffset(0);
          }}
          options={[
            { value: 'customer', label: t('plumbers.owner.customer') },
            { value: 'shared', label: t('plumbers.owner.shared') },
          ]}
        />
      </div>
      <QueryBoundary query={plumbers}>
        {(data) => (
          <>
            <DataTable
              phoneCards
              caption={t('plumbers.title')}
              columns={columns}
              rows={data.items}
              rowKey={(p) => p.id}
              empty={search || speciality || owner ? t('common.no_results') : t('plumbers.empty')}
            />
            {data.total > PAGE && (
              <nav className="mt-4 flex items-center gap-3" aria-label={t('plumbers.title')}>
                <Button
                  variant="secondary"
                  disabled={offset === 0}
                  onClick={() => setOffset(Math.max(0, offset - PAGE))}
                >
                  {t('plumbers.previous')}
                </Button>
                <span className="text-sm">
                  {t('plumbers.page', {
                    from: offset + 1,
                    to: Math.min(offset + PAGE, data.total),
                    total: data.total,
                  })}
                </span>
                <Button
                  variant="secondary"
                  disabled={offset + PAGE >= data.total}
                  onClick={() => setOffset(offset + PAGE)}
                >
                  {t('plumbers.next')}
                </Button>
              </nav>
            )}
          </>
        )}
      </QueryBoundary>
      {deleting && (
        <ConfirmDeleteDialog
          open
          name={deleting.company}
          onClose={() => setDeleting(null)}
          onConfirm={async (confirmName) => {
            await remove.mutateAsync({ id: deleting.id, confirmName });
            toast.success(t('plumbers.deleted'));
            setDeleting(null);
          }}
        />
      )}
    </>
  );
}
