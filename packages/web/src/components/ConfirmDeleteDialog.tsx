import { useTranslation } from 'react-i18next';
import { TypedConfirmDialog } from './TypedConfirmDialog.tsx';

type ConfirmDeleteDialogProps = {
  open: boolean;
  onClose: () => void;
  /** The name the user must type (spec §5). */
  name: string;
  /** What else disappears with the item. */
  consequence?: string;
  onConfirm: (confirmName: string) => Promise<unknown>;
};

/** A deletion: the item's name must be typed; the server checks it again. */
export function ConfirmDeleteDialog({
  open,
  onClose,
  name,
  consequence,
  onConfirm,
}: ConfirmDeleteDialogProps) {
  const { t } = useTranslation();
  return (
    <TypedConfirmDialog
      open={open}
      onClose={onClose}
      expected={name}
      onConfirm={onConfirm}
      warning={t('delete.irreversible')}
      consequence={consequence}
      prompt={t('delete.type_name')}
      fieldLabel={t('delete.name_label')}
      confirmLabel={t('common.delete')}
    />
  );
}
