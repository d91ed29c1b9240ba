import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/Alert.tsx';
import { Button } from '../../../components/Button.tsx';
import { Dialog } from '../../../components/Dialog.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { errorMessage } from '../../../lib/forms.ts';
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
    if (typed.trim() !== zoneName) {
      setMismatch(true);
      return;
    }
    setBusy(true);
    try {
      await onConfirm(typed.trim());
      setTyped('');
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onClose={close} title={t('dialog.warning')} tone="danger">
      <form onSubmit={submit} noValidate className="space-y-4">
        <p className="text-sm">{t('automation.exit_irreversible')}</p>
        <p className="text-sm">
          {t('automation.exit_type_name')} <strong className="font-semibold break-all">{zoneName}</strong>
        </p>
        <TextField
          label={t('automation.exit_name_label')}
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
            {t('automation.exit')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
