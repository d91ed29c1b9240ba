import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../lib/forms.ts';
import { Alert } from './Alert.tsx';
import { Button } from './Button.tsx';
import { Dialog } from './Dialog.tsx';
import { TextField } from './TextField.tsx';

type ConfirmDeleteDialogProps = {
  open: boolean;
  onClose: () => void;
  /** The name the user must type (spec §5). */
  name: string;
  /** What else disappears with the item. */
  consequence?: string;
  onConfirm: (confirmName: string) => Promise<unknown>;
};

/** "Warning!" dialog: the item's name must be typed; the server checks it again. */
export function ConfirmDeleteDialog({
  open,
  onClose,
  name,
  consequence,
  onConfirm,
}: ConfirmDeleteDialogProps) {
  const { t } = useTranslation();
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
    if (typed.trim() !== name) {
      setMismatch(true);
      return;
    }
    setBusy(true);
    try {
      await onConfirm(typed.trim());
      setTyped('');
      setMismatch(false);
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
        {consequence && <p className="text-sm font-medium">{consequence}</p>}
        <p className="text-sm">
          {t('delete.type_name')} <strong className="font-semibold break-all">{name}</strong>
        </p>
        <TextField
          label={t('delete.name_label')}
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
            {t('common.delete')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
