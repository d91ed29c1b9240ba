import { ROLES, type User } from '@flowbox/shared';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmActionDialog } from '../../../components/ConfirmActionDialog.tsx';
import { ConfirmDeleteDialog } from '../../../components/ConfirmDeleteDialog.tsx';
import { DataTable, type Column } from '../../../components/DataTable.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { UserStatusBadge } from '../../../components/UserStatusBadge.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { errorMessage } from '../../../lib/forms.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useUser } from '../../auth/index.ts';
import { useDeleteManager } from '../api/delete-manager.ts';
import { useUpdateManager } from '../api/update-manager.ts';
import { canManageFamily, fullName, isPeopleFamily, type ManagerFamily } from '../family.ts';
import type { SiteOption } from './ManagerForm.tsx';

type ManagersTableProps = {
  family: ManagerFamily;
  caption: string;
  managers: readonly User[];
  empty: string;
  editHref: (managerId: string) => string;
  permissionsHref: (managerId: string) => string;
  /** End users and plumbers: the names of the zones or sites they may be given, to list theirs. */
  placeNames?: readonly SiteOption[];
};

const ACTION =
  'rounded text-sm font-medium text-sky-700 hover:underline focus-visible:outline-2 focus-visible:outline-sky-600 dark:text-sky-400';

export function ManagersTable({
  family,
  caption,
  managers,
  empty,
  editHref,
  permissionsHref,
  placeNames,
}: ManagersTableProps) {
  const { t, language } = useLanguage();
  const user = useUser();
  const toast = useToast();
  const remove = useDeleteManager(family);
  const update = useUpdateManager(family);
  const [deleting, setDeleting] = useState<User | null>(null);
  const [suspending, setSuspending] = useState<User | null>(null);
  const manages = canManageFamily(user, family);
  const people = isPeopleFamily(family);
  const names = new Map(placeNames?.map((p) => [p.id, p.name]));

  const columns: Column<User>[] = [
    { key: 'name', header: t('fields.name'), rowHeader: true, cell: (m) => fullName(m) },
    {
      key: 'email',
      header: t('fields.email'),
      hideOnMobile: true,
      cell: (m) => <span className="break-all">{m.email}</span>,
    },
    ...(people
      ? [
          {
            key: 'places',
            hideOnMobile: true,
            header: family.role === ROLES.end_user ? t('people.zones') : t('people.sites'),
            cell: (m: User) => (
              <ul className="text-sm">
                {(m.zone_id.length > 0 ? m.zone_id : m.site_id).map((id) => (
                  <li key={id}>{names.get(id) ?? '…'}</li>
                ))}
              </ul>
            ),
          },
        ]
      : []),
    { key: 'status', header: t('managers.status'), cell: (m) => <UserStatusBadge status={m.status} /> },
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
      actions: true,
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
            {people && (
              <button
                type="button"
                onClick={() => setSuspending(m)}
                className={`${ACTION} text-left`}
                aria-label={t(m.status === 'suspended' ? 'people.lift_who' : 'people.suspend_who', {
                  name: fullName(m),
                })}
              >
                {m.status === 'suspended' ? t('people.lift') : t('people.suspend')}
              </button>
            )}
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
      <DataTable
        phoneCards
        caption={caption}
        columns={columns}
        rows={managers}
        rowKey={(m) => m.id}
        empty={empty}
      />
      {deleting && (
        <ConfirmDeleteDialog
          open
          onClose={() => setDeleting(null)}
          name={fullName(deleting)}
          consequence={people ? t('people.delete_consequence') : t('managers.delete_consequence')}
          onConfirm={async (confirmName) => {
            await remove.mutateAsync({ managerId: deleting.id, confirmName });
            setDeleting(null);
            toast.success(t('toast.user_deleted'));
          }}
        />
      )}
      {suspending && (
        <ConfirmActionDialog
          open
          onClose={() => setSuspending(null)}
          tone={suspending.status === 'suspended' ? 'default' : 'danger'}
          title={t(suspending.status === 'suspended' ? 'people.lift_who' : 'people.suspend_who', {
            name: fullName(suspending),
          })}
          text={t(suspending.status === 'suspended' ? 'people.lift_text' : 'people.suspend_text', {
            name: fullName(suspending),
          })}
          confirmLabel={suspending.status === 'suspended' ? t('people.lift') : t('people.suspend')}
          onConfirm={async () => {
            const suspend = suspending.status !== 'suspended';
            try {
              await update.mutateAsync({ managerId: suspending.id, input: { suspended: suspend } });
              toast.success(suspend ? t('people.suspended') : t('people.lifted'));
            } catch (error) {
              toast.error(errorMessage(error));
            }
            setSuspending(null);
          }}
        />
      )}
    </>
  );
}
