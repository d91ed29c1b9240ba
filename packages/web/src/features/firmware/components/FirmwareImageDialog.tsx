import type { FirmwareImage } from '@flowbox/shared';
import { Button, ButtonLink } from '../../../components/Button.tsx';
import { DescriptionList } from '../../../components/Card.tsx';
import { Dialog } from '../../../components/Dialog.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { formatSize } from '../format.ts';
import { ImageStatusBadge } from './ImageStatusBadge.tsx';
import { ModelsText } from './ModelsText.tsx';
import { ReleaseText } from './ReleaseText.tsx';

export type ImageStatusChange = 'deprecated' | 'withdrawn';

/** Release notes as written, or a word saying there are none. */
function Notes({ text }: { text: string | null }) {
  const { t } = useLanguage();
  return text ? (
    <p className="text-sm break-words whitespace-pre-wrap">{text}</p>
  ) : (
    <p className="text-sm text-slate-500 dark:text-slate-400">{t('firmware.no_notes')}</p>
  );
}

/**
 * An image's details (docs/firmware.md "Catalogue"): its file, checksum, models, release and
 * notes in both languages; a way to roll it out, and for provider managers to deprecate or
 * withdraw it (the page asks for confirmation).
 */
export function FirmwareImageDialog({
  image,
  canManage,
  onClose,
  onChangeStatus,
}: {
  image: FirmwareImage | null;
  canManage: boolean;
  onClose: () => void;
  onChangeStatus: (image: FirmwareImage, status: ImageStatusChange) => void;
}) {
  const { t, language } = useLanguage();
  return (
    <Dialog
      open={image !== null}
      onClose={onClose}
      title={image ? t('firmware.details_title', { version: image.version }) : ''}
    >
      {image && (
        <div className="space-y-5">
          <DescriptionList
            items={[
              {
                label: t('firmware.file_name'),
                value: <span className="font-mono break-all">{image.file_name}</span>,
              },
              { label: t('firmware.models'), value: <ModelsText models={image.models} /> },
              { label: t('firmware.size'), value: formatSize(image.size, language) },
              { label: t('firmware.status'), value: <ImageStatusBadge status={image.status} /> },
              { label: t('firmware.release'), value: <ReleaseText release={image.released_to} /> },
              {
                label: t('firmware.installed'),
                value: t('firmware.installed_count', { count: image.installed_count }),
              },
              {
                label: t('firmware.uploaded'),
                value: t('firmware.by_on', {
                  name: image.uploaded_by_name ?? t('firmware.someone'),
                  date: formatDateTime(image.uploaded_at, language),
                }),
              },
              {
                label: 'SHA-256',
                value: <span className="font-mono text-xs break-all">{image.sha256}</span>,
              },
            ]}
          />
          <section className="space-y-3">
            <div>
              <h3 className="text-sm font-semibold">{t('firmware.notes_en')}</h3>
              <Notes text={image.notes_en} />
            </div>
            <div>
              <h3 className="text-sm font-semibold">{t('firmware.notes_fr')}</h3>
              <Notes text={image.notes_fr} />
            </div>
          </section>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:flex-wrap sm:justify-end">
            <Button variant="secondary" onClick={onClose}>
              {t('common.close')}
            </Button>
            {canManage && image.status === 'active' && (
              <Button variant="secondary" onClick={() => onChangeStatus(image, 'deprecated')}>
                {t('firmware.deprecate')}
              </Button>
            )}
            {canManage && image.status !== 'withdrawn' && (
              <Button variant="danger" onClick={() => onChangeStatus(image, 'withdrawn')}>
                {t('firmware.withdraw')}
              </Button>
            )}
            {image.status !== 'withdrawn' && (
              <ButtonLink to={paths.firmwareRolloutAdd.getHref(image.id)}>
                {t('firmware.roll_out')}
              </ButtonLink>
            )}
          </div>
        </div>
      )}
    </Dialog>
  );
}
