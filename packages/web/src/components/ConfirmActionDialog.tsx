import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './Button.tsx';
import { Dialog } from './Dialog.tsx';

type ConfirmActionDialogProps = {
  open: boolean;
  title: string;
  text: string;
  confirmLabel: string;
  onClose: () => void;
  onConfirm: () => Promise<unknown>;
  /** Danger for what cuts, stops or removes; default for what only resumes. */
  tone?: 'danger' | 'default';
};

/** A confirmation before an action that cuts water, stops a device or an update, or removes something. */
export function ConfirmActionDialog({
  open,
  title,
  text,
  confirmLabel,
  onClose,
  onConfirm,
  tone = 'danger',
}: ConfirmActionDialogProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  async function confirm() {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog open={open} onClose={onClose} title={title} tone={tone}>
      <p className="text-sm">{text}</p>
      <div className="mt-5 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button
          variant={tone === 'danger' ? 'danger' : 'primary'}
          loading={busy}
          onClick={() => void confirm()}
        >
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
