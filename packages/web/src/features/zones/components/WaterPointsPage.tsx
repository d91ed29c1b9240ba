import type { WaterPoint } from '@flowbox/shared';
import { useCallback, useState } from 'react';
import { Button, ButtonLink } from '../../../components/Button.tsx';
import { ConfirmDeleteDialog } from '../../../components/ConfirmDeleteDialog.tsx';
import { DataTable, type Column } from '../../../components/DataTable.tsx';
import { Dialog } from '../../../components/Dialog.tsx';
import { EmptyState } from '../../../components/EmptyState.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { SearchField } from '../../../components/SearchField.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { changesOf } from '../../../lib/form-values.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { ANY_ROLE, canDo, useUser } from '../../auth/index.ts';
import { useDeleteWaterPoint } from '../api/delete-water-point.ts';
import type { ZoneRef } from '../api/get-zone.ts';
import { useWaterPoints } from '../api/list-water-points.ts';
import { useUpdateWaterPoint } from '../api/update-water-point.ts';
import { waterPointFormValues } from '../form-values.ts';
import { formatDecimal } from '../format.ts';
import { useZoneCrumbs } from './useZoneCrumbs.ts';
import { useZoneRef } from './useZoneRef.ts';
import { WaterPointForm } from './WaterPointForm.tsx';

function EditWaterPointDialog({
  zoneRef,
  point,
  onClose,
}: {
  zoneRef: ZoneRef;
  point: WaterPoint | null;
  onClose: () => void;
}) {
  const { t } = useLanguage();
  const toast = useToast();
  const update = useUpdateWaterPoint(zoneRef);
  return (
    <Dialog open={point !== null} onClose={onClose} title={t('water_points.edit')}>
      {point && (
        <WaterPointForm
          defaultValues={waterPointFormValues(point)}
          submitLabel={t('common.save')}
          onCancel={onClose}
          onSubmit={async (values) => {
            const changes = changesOf(point, values);
            if (Object.keys(changes).length === 0) {
              toast.success(t('water_points.toast_unchanged'));
            } else {
              await update.mutateAsync({ id: point.id, input: changes });
              toast.success(t('water_points.toast_updated'));
            }
            onClose();
          }}
        />
      )}
    </Dialog>
  );
}

export function WaterPointsPage() {
  const { t, language } = useLanguage();
  const ref = useZoneRef();
  const user = useUser();
  const toast = useToast();
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<WaterPoint | null>(null);
  const [deleting, setDeleting] = useState<WaterPoint | null>(null);
  const points = useWaterPoints(ref, search);
  const remove = useDeleteWaterPoint(ref);
  const onSearch = useCallback((text: string) => setSearch(text), []);
  const manages = canDo(user, ANY_ROLE, 'buildings.manage');
  const addHref = paths.waterPointAdd.getHref(ref.customerId, ref.siteId, ref.buildingId, ref.zoneId);

  const columns: Column<WaterPoint>[] = [
    { key: 'label', header: t('water_points.label'), rowHeader: true, cell: (p) => p.label },
    { key: 'type', header: t('water_points.type'), cell: (p) => t(`water_points.type.${p.type}`) },
    {
      key: 'location',
      header: t('water_points.location'),
      hideOnMobile: true,
      cell: (p) => p.location ?? '—',
    },
    {
      key: 'flow',
      header: t('water_points.nominal_flow_column'),
      hideOnMobile: true,
      cell: (p) =>
        p.nominal_flow_lpm === null
          ? '—'
          : t('water_points.flow_value', { flow: formatDecimal(p.nominal_flow_lpm, language) }),
    },
  ];
  if (manages) {
    columns.push({
      key: 'actions',
      header: t('common.actions'),
      cell: (p) => (
        <div className="flex flex-wrap gap-1">
          <Button
            variant="ghost"
            aria-label={t('water_points.edit_named', { label: p.label })}
            onClick={() => setEditing(p)}
          >
            {t('common.edit')}
          </Button>
          <Button
            variant="ghost"
            className="text-red-700! dark:text-red-400!"
            aria-label={t('water_points.delete_named', { label: p.label })}
            onClick={() => setDeleting(p)}
          >
            {t('common.delete')}
          </Button>
        </div>
      ),
    });
  }

  return (
    <>
      <PageHeader
        title={t('water_points.title')}
        description={t('water_points.description')}
        breadcrumbs={useZoneCrumbs(ref)}
        actions={manages && <ButtonLink to={addHref}>{t('water_points.add')}</ButtonLink>}
      />
      <SearchField label={t('water_points.search')} onSearch={onSearch} />
      <QueryBoundary query={points}>
        {(data) =>
          data.items.length === 0 && !search ? (
            <EmptyState title={t('water_points.empty')}>{manages && t('water_points.empty_hint')}</EmptyState>
          ) : (
            <DataTable
              caption={t('water_points.title')}
              columns={columns}
              rows={data.items}
              rowKey={(p) => p.id}
              empty={t('common.no_results')}
            />
          )
        }
      </QueryBoundary>
      {manages && (
        <>
          <EditWaterPointDialog zoneRef={ref} point={editing} onClose={() => setEditing(null)} />
          <ConfirmDeleteDialog
            open={deleting !== null}
            onClose={() => setDeleting(null)}
            name={deleting?.label ?? ''}
            onConfirm={async (confirmName) => {
              if (!deleting) return;
              await remove.mutateAsync({ id: deleting.id, confirmName });
              setDeleting(null);
              toast.success(t('water_points.toast_deleted'));
            }}
          />
        </>
      )}
    </>
  );
}
