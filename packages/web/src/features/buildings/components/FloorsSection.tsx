import type { Floor } from '@flowbox/shared';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/Button.tsx';
import { Card } from '../../../components/Card.tsx';
import { ConfirmDeleteDialog } from '../../../components/ConfirmDeleteDialog.tsx';
import { DataTable, type Column } from '../../../components/DataTable.tsx';
import { Dialog } from '../../../components/Dialog.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { changesOf } from '../../../lib/form-values.ts';
import { paths } from '../../../paths.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useCreateFloor } from '../api/create-floor.ts';
import { useDeleteFloor } from '../api/delete-floor.ts';
import { useFloors } from '../api/list-floors.ts';
import { useUpdateFloor } from '../api/update-floor.ts';
import { FloorForm } from './FloorForm.tsx';

export type FloorsSectionProps = { customerId: string; siteId: string; buildingId: string; manages: boolean };

/** The building's floors: list, add and modify in a dialog, delete with the label typed (spec §5). */
export function FloorsSection({ customerId, siteId, buildingId, manages }: FloorsSectionProps) {
  const { t } = useLanguage();
  const toast = useToast();
  const floors = useFloors(customerId, siteId, buildingId);
  const create = useCreateFloor(customerId, siteId, buildingId);
  const update = useUpdateFloor(customerId, siteId, buildingId);
  const remove = useDeleteFloor(customerId, siteId, buildingId);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Floor | null>(null);
  const [deleting, setDeleting] = useState<Floor | null>(null);

  const columns: Column<Floor>[] = [
    { key: 'label', header: t('floors.label'), rowHeader: true, cell: (f) => f.label },
    { key: 'occupants', header: t('floors.occupants'), cell: (f) => f.occupants ?? '—' },
    {
      key: 'flowbox',
      header: t('floors.flowbox'),
      cell: (f) =>
        f.flowboxes.length === 0 ? (
          <span className="text-slate-500 dark:text-slate-400">{t('floors.no_flowbox')}</span>
        ) : (
          <ul className="space-y-0.5">
            {f.flowboxes.map((fb) => (
              <li key={fb.id}>
                <Link
                  to={paths.flowbox.getHref(customerId, siteId, buildingId, fb.zone_id, fb.id)}
                  className="font-mono text-sky-700 hover:underline dark:text-sky-400"
                >
                  {fb.serial}
                </Link>{' '}
                <span className="text-slate-500 dark:text-slate-400">
                  {t('floors.flowbox_zone', { zone: fb.zone_name })}
                </span>
              </li>
            ))}
          </ul>
        ),
    },
  ];
  if (manages)
    columns.push({
      key: 'actions',
      header: t('common.actions'),
      cell: (f) => (
        <div className="flex flex-wrap gap-1">
          <Button
            variant="ghost"
            aria-label={t('floors.modify_named', { label: f.label })}
            onClick={() => setEditing(f)}
          >
            {t('common.edit')}
          </Button>
          <Button
            variant="ghost"
            className="text-red-700 dark:text-red-400"
            aria-label={t('floors.delete_named', { label: f.label })}
            onClick={() => setDeleting(f)}
          >
            {t('common.delete')}
          </Button>
        </div>
      ),
    });

  return (
    <Card
      title={t('floors.title')}
      actions={
        manages && (
          <Button variant="secondary" onClick={() => setAdding(true)}>
            {t('floors.add')}
          </Button>
        )
      }
    >
      <QueryBoundary query={floors}>
        {(data) => (
          <DataTable
            caption={t('floors.title')}
            columns={columns}
            rows={data.items}
            rowKey={(f) => f.id}
            empty={t('floors.empty')}
          />
        )}
      </QueryBoundary>
      {manages && (
        <>
          <Dialog open={adding} title={t('floors.add')} onClose={() => setAdding(false)}>
            <FloorForm
              submitLabel={t('floors.create')}
              onCancel={() => setAdding(false)}
              onSubmit={async (values) => {
                await create.mutateAsync(values);
                setAdding(false);
                toast.success(t('floors.added'));
              }}
            />
          </Dialog>
          <Dialog open={editing !== null} title={t('floors.edit')} onClose={() => setEditing(null)}>
            {editing && (
              <FloorForm
                floor={editing}
                submitLabel={t('common.save')}
                onCancel={() => setEditing(null)}
                onSubmit={async (values) => {
                  const changes = changesOf(editing, values);
                  if (Object.keys(changes).length > 0)
                    await update.mutateAsync({ floorId: editing.id, input: changes });
                  setEditing(null);
                  toast.success(t('floors.modified'));
                }}
              />
            )}
          </Dialog>
          <ConfirmDeleteDialog
            open={deleting !== null}
            onClose={() => setDeleting(null)}
            name={deleting?.label ?? ''}
            consequence={t('floors.delete_consequence')}
            onConfirm={async (confirmName) => {
              if (!deleting) return;
              await remove.mutateAsync({ floorId: deleting.id, confirmName });
              setDeleting(null);
              toast.success(t('floors.deleted'));
            }}
          />
        </>
      )}
    </Card>
  );
}
