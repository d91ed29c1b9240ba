import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/Alert.tsx';
import { Button } from '../../../components/Button.tsx';
import { Dialog } from '../../../components/Dialog.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { errorMessage } from '../../../lib/forms.ts';
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
  const [typed, setTyped] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function close() {
    setTyped('');
    setMismatch(false);
    setFailure(null);
    onClose();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    if (typed.trim() !== serial) {
      setMismatch(true);
      return;
    }
    setBusy(true);
    try {
      await onConfirm(typed.trim());
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onClose={close} title={t('dialog.warning')} tone="danger">
      <form onSubmit={submit} noValidate className="space-y-4">
        <p className="text-sm">{t('delete.irreversible')}</p>
        <p className="text-sm font-medium">{t('flowbox.detach_text', { serial })}</p>
        <p className="text-sm">
          {t('flowbox.detach_type_serial')} <strong className="font-mono break-all">{serial}</strong>
        </p>
        <TextField
          label={t('flowbox.detach_label')}
          name="confirm_name"
          value={typed}
          autoComplete="off"
          onChange={(event) => {
            setTyped(event.target.value);
            setMismatch(false);
          }}
          error={mismatch ? { type: 'mismatch', message: 'errors.names_mismatch' } : undefined}
        />
        {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={close}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="danger" loading={busy}>
            {t('flowbox.detach')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
