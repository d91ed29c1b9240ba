import { useState } from 'react';
import { Button } from '../../../components/Button.tsx';
import { Dialog } from '../../../components/Dialog.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';

type ConfirmActionDialogProps = {
  open: boolean;
  title: string;
  text: string;
  confirmLabel: string;
  onClose: () => void;
  onConfirm: () => Promise<unknown>;
};

/** A confirmation before an action that cuts water, stops a device or removes it. */
export function ConfirmActionDialog({
  open,
  title,
  text,
  confirmLabel,
  onClose,
  onConfirm,
}: ConfirmActionDialogProps) {
  const { t } = useLanguage();
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
    <Dialog open={open} onClose={onClose} title={title} tone="danger">
      <p className="text-sm">{text}</p>
      <div className="mt-5 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button variant="danger" loading={busy} onClick={() => void confirm()}>
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
