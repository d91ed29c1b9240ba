import { TypedConfirmDialog } from '../../../components/TypedConfirmDialog.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';

type ExitAutomationDialogProps = {
  open: boolean;
  onClose: () => void;
  zoneName: string;
  onConfirm: (confirmName: string) => Promise<unknown>;
};

/** spec §5: exiting automatic closing needs the zone's name typed, after the irreversibility warning. */
export function ExitAutomationDialog({ open, onClose, zoneName, onConfirm }: ExitAutomationDialogProps) {
  const { t } = useLanguage();
  return (
    <TypedConfirmDialog
      open={open}
      onClose={onClose}
      expected={zoneName}
      onConfirm={onConfirm}
      warning={t('automation.exit_irreversible')}
      prompt={t('automation.exit_type_name')}
      fieldLabel={t('automation.exit_name_label')}
      confirmLabel={t('automation.exit')}
    />
  );
}
