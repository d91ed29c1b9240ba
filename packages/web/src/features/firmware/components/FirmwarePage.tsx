import { FIRMWARE_IMAGE_STATUSES, FLOWBOX_MODELS, ROLES, type FirmwareImage } from '@flowbox/shared';
import { useState } from 'react';
import { Button, ButtonLink } from '../../../components/Button.tsx';
import { ConfirmActionDialog } from '../../../components/ConfirmActionDialog.tsx';
import { DataTable, type Column } from '../../../components/DataTable.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { Select } from '../../../components/Select.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { errorMessage } from '../../../lib/forms.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { canDo, FLOVEA, useUser } from '../../auth/index.ts';
import { useImages, type ImageFilters } from '../api/list-images.ts';
import { useUpdateImage } from '../api/update-image.ts';
import { formatSize } from '../format.ts';
import { FirmwareImageDialog, type ImageStatusChange } from './FirmwareImageDialog.tsx';
import { FirmwareUploadCard } from './FirmwareUploadCard.tsx';
import { ImageStatusBadge } from './ImageStatusBadge.tsx';
import { ModelsText } from './ModelsText.tsx';
import { ReleaseText } from './ReleaseText.tsx';

function useImageColumns(onOpen: (image: FirmwareImage) => void): Column<FirmwareImage>[] {
  const { t, language } = useLanguage();
  return [
    {
      key: 'version',
      header: t('firmware.version'),
      rowHeader: true,
      cell: (i) => (
        <button
          type="button"
          onClick={() => onOpen(i)}
          className="rounded text-left text-sky-700 hover:underline focus-visible:outline-2 focus-visible:outline-sky-600 dark:text-sky-400"
          aria-label={t('firmware.details_of', { version: i.version })}
        >
          {i.version}
        </button>
      ),
    },
    { key: 'models', header: t('firmware.models'), cell: (i) => <ModelsText models={i.models} /> },
    {
      key: 'size',
      header: t('firmware.size'),
      hideOnMobile: true,
      cell: (i) => formatSize(i.size, language),
    },
    { key: 'status', header: t('firmware.status'), cell: (i) => <ImageStatusBadge status={i.status} /> },
    {
      key: 'release',
      header: t('firmware.release'),
      hideOnMobile: true,
      cell: (i) => <ReleaseText release={i.released_to} />,
    },
    {
      key: 'installed',
      header: t('firmware.installed'),
      hideOnMobile: true,
      cell: (i) => t('firmware.installed_count', { count: i.installed_count }),
    },
    {
      key: 'uploaded',
      header: t('firmware.uploaded'),
      hideOnMobile: true,
      cell: (i) => (
        <span className="text-xs">
          {i.uploaded_by_name ?? t('firmware.someone')}
          <span className="block text-slate-600 dark:text-slate-400">
            {formatDateTime(i.uploaded_at, language)}
          </span>
        </span>
      ),
    },
    {
      key: 'actions',
      header: t('common.actions'),
      cell: (i) =>
        i.status === 'withdrawn' ? (
          '—'
        ) : (
          <ButtonLink
            to={paths.firmwareRolloutAdd.getHref(i.id)}
            variant="secondary"
            className="px-3 py-1 whitespace-nowrap"
            aria-label={t('firmware.roll_out_version', { version: i.version })}
          >
            {t('firmware.roll_out')}
          </ButtonLink>
        ),
    },
  ];
}

/**
 * The firmware catalogue (/firmware, docs/firmware.md "Catalogue"): provider managers upload,
 * deprecate and withdraw images; every manager reads what is released to it and rolls it out.
 */
export function FirmwarePage() {
  const { t } = useLanguage();
  const user = useUser();
  const toast = useToast();
  const canManage = user.role === ROLES.flovea_manager && canDo(user, FLOVEA, 'firmware.update');
  const [filters, setFilters] = useState<ImageFilters>({});
  const images = useImages(filters);
  const [uploading, setUploading] = useState(false);
  const [open, setOpen] = useState<FirmwareImage | null>(null);
  const [changing, setChanging] = useState<{ image: FirmwareImage; status: ImageStatusChange } | null>(null);
  const update = useUpdateImage();
  const columns = useImageColumns(setOpen);

  return (
    <>
      <PageHeader
        title={t('firmware.title')}
        description={t('firmware.description')}
        actions={
          <>
            <ButtonLink to={paths.firmwareRollouts.getHref()} variant="secondary">
              {t('firmware.rollouts')}
            </ButtonLink>
            {canManage && !uploading && (
              <Button onClick={() => setUploading(true)}>{t('firmware.upload.open')}</Button>
            )}
          </>
        }
      />
      <div className="space-y-6">
        {uploading && <FirmwareUploadCard onClose={() => setUploading(false)} />}
        <section
          aria-label={t('firmware.filters')}
          className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:max-w-xl"
        >
          <Select
            label={t('firmware.filter.model')}
            name="model"
            value={filters.model ?? ''}
            placeholder={t('firmware.filter.all_models')}
            options={FLOWBOX_MODELS.map((m) => ({ value: m, label: t(`zones.flowbox_model.${m}`) }))}
            onChange={(event) =>
              setFilters((f) => ({ ...f, model: (event.target.value || undefined) as ImageFilters['model'] }))
            }
          />
          <Select
            label={t('firmware.filter.status')}
            name="status"
            value={filters.status ?? ''}
            placeholder={t('firmware.filter.all_statuses')}
            options={FIRMWARE_IMAGE_STATUSES.map((s) => ({
              value: s,
              label: t(`firmware.image_status.${s}`),
            }))}
            onChange={(event) =>
              setFilters((f) => ({
                ...f,
                status: (event.target.value || undefined) as ImageFilters['status'],
              }))
            }
          />
        </section>
        <QueryBoundary query={images}>
          {(data) => (
            <DataTable
              caption={t('firmware.catalogue')}
              columns={columns}
              rows={data}
              rowKey={(i) => i.id}
              empty={t('firmware.catalogue_empty')}
            />
          )}
        </QueryBoundary>
      </div>
      <FirmwareImageDialog
        image={open}
        canManage={canManage}
        onClose={() => setOpen(null)}
        onChangeStatus={(image, status) => {
          setOpen(null);
          setChanging({ image, status });
        }}
      />
      <ConfirmActionDialog
        open={changing !== null}
        title={changing ? t(`firmware.${changing.status}_title`, { version: changing.image.version }) : ''}
        text={changing ? t(`firmware.${changing.status}_text`, { version: changing.image.version }) : ''}
        confirmLabel={changing?.status === 'withdrawn' ? t('firmware.withdraw') : t('firmware.deprecate')}
        onClose={() => setChanging(null)}
        onConfirm={async () => {
          if (!changing) return;
          try {
            await update.mutateAsync({ imageId: changing.image.id, patch: { status: changing.status } });
            toast.success(t(`firmware.${changing.status}_done`, { version: changing.image.version }));
          } catch (error) {
            toast.error(errorMessage(error));
          }
          setChanging(null);
        }}
      />
    </>
  );
}
