import type { User } from '@flowbox/shared';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDeleteDialog } from '../../../components/ConfirmDeleteDialog.tsx';
import { DataTable, type Column } from '../../../components/DataTable.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useUser } from '../../auth/index.ts';
import { useDeleteManager } from '../api/delete-manager.ts';
import { canManageFamily, fullName, type ManagerFamily } from '../family.ts';

type ManagersTableProps = {
  family: ManagerFamily;
  caption: string;
  managers: readonly User[];
  empty: string;
  editHref: (managerId: string) => string;
  permissionsHref: (managerId: string) => string;
};

const ACTION =
  'rounded text-sm font-medium text-sky-700 hover:underline focus-visible:outline-2 focus-visible:outline-sky-600 dark:text-sky-400';

export function StatusBadge({ status }: { status: User['status'] }) {
  const { t } = useLanguage();
  return (
    <span
      className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ${
        status === 'active'
          ? 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900/50 dark:text-emerald-200'
          : 'bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-200'
      }`}
    >
      {t(`managers.status_${status}`)}
    </span>
  );
}

export function ManagersTable({
  family,
  caption,
  managers,
  empty,
  editHref,
  permissionsHref,
}: ManagersTableProps) {
  const { t, language } = useLanguage();
  const user = useUser();
  const toast = useToast();
  const remove = useDeleteManager(family);
  const [deleting, setDeleting] = useState<User | null>(null);
  const manages = canManageFamily(user, family);

  const columns: Column<User>[] = [
    { key: 'name', header: t('fields.name'), rowHeader: true, cell: (m) => fullName(m) },
    {
      key: 'email',
      header: t('fields.email'),
      hideOnMobile: true,
      cell: (m) => <span className="break-all">{m.email}</span>,
    },
    { key: 'status', header: t('managers.status'), cell: (m) => <StatusBadge status={m.status} /> },
    {
      key: 'last',
      header: t('fields.last_logged_in'),
      hideOnMobile: true,
      cell: (m) => formatDateTime(m.last_logged_in, language),
    },
  ];
  if (manages) {
    columns.push({
      key: 'actions',
      header: t('common.actions'),
      cell: (m) =>
        m.id === user.id ? (
          <span className="text-xs text-slate-500">{t('managers.you')}</span>
        ) : (
          <div className="flex flex-wrap gap-x-3 gap-y-1">
            <Link to={editHref(m.id)} className={ACTION} aria-label={`${t('common.edit')} ${fullName(m)}`}>
              {t('common.edit')}
            </Link>
            <Link
              to={permissionsHref(m.id)}
              className={ACTION}
              aria-label={`${t('permissions.title')} ${fullName(m)}`}
            >
              {t('permissions.title')}
            </Link>
            <button
              type="button"
              onClick={() => setDeleting(m)}
              className={`${ACTION} text-red-700 dark:text-red-400`}
              aria-label={`${t('common.delete')} ${fullName(m)}`}
            >
              {t('common.delete')}
            </button>
          </div>
        ),
    });
  }

  return (
    <>
      <DataTable caption={caption} columns={columns} rows={managers} rowKey={(m) => m.id} empty={empty} />
      {deleting && (
        <ConfirmDeleteDialog
          open
          onClose={() => setDeleting(null)}
          name={fullName(deleting)}
          consequence={t('managers.delete_consequence')}
          onConfirm={async (confirmName) => {
            await remove.mutateAsync({ managerId: deleting.id, confirmName });
            setDeleting(null);
            toast.success(t('toast.user_deleted'));
          }}
        />
      )}
    </>
  );
}
