import { TypedConfirmDialog } from '../../../components/TypedConfirmDialog.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';

type DetachDialogProps = {
  open: boolean;
  serial: string;
  onClose: () => void;
  onConfirm: (confirmName: string) => Promise<unknown>;
};

/** spec §4: detaching needs confirmation; as for deletions (spec §5) the serial is typed. */
export function DetachDialog({ open, serial, onClose, onConfirm }: DetachDialogProps) {
  const { t } = useLanguage();
  return (
    <TypedConfirmDialog
      open={open}
      onClose={onClose}
      expected={serial}
      onConfirm={onConfirm}
      warning={t('delete.irreversible')}
      consequence={t('flowbox.detach_text', { serial })}
      prompt={t('flowbox.detach_type_serial')}
      fieldLabel={t('flowbox.detach_label')}
      confirmLabel={t('flowbox.detach')}
      monospace
    />
  );
}
