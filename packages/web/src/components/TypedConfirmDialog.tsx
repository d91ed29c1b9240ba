import { typedNameMatches } from '@flowbox/shared';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../lib/forms.ts';
import { Alert } from './Alert.tsx';
import { Button } from './Button.tsx';
import { Dialog } from './Dialog.tsx';
import { TextField } from './TextField.tsx';

export type TypedConfirmDialogProps = {
  open: boolean;
  onClose: () => void;
  /** What the user must type: the item's name, or a device's serial (spec §5). */
  expected: string;
  /** Called with the typed text, which the server checks again. */
  onConfirm: (typed: string) => Promise<unknown>;
  /** The irreversibility warning (spec §5). */
  warning: string;
  /** What else happens or disappears with the action. */
  consequence?: string;
  /** The sentence before the text to type ("To confirm, type the name:"). */
  prompt: string;
  fieldLabel: string;
  confirmLabel: string;
  /** Serials read better in a fixed-width font; names in the body font. */
  monospace?: boolean;
  tone?: 'danger' | 'default';
};

/** "Warning!" dialog: the action goes ahead once the expected text is typed; a mismatch is refused in place. */
export function TypedConfirmDialog({
  open,
  onClose,
  expected,
  onConfirm,
  warning,
  consequence,
  prompt,
  fieldLabel,
  confirmLabel,
  monospace = false,
  tone = 'danger',
}: TypedConfirmDialogProps) {
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
    if (!typedNameMatches(typed, expected)) {
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
    <Dialog open={open} onClose={close} title={t('dialog.warning')} tone={tone}>
      <form onSubmit={submit} noValidate className="space-y-4">
        <p className="text-sm">{warning}</p>
        {consequence && <p className="text-sm font-medium">{consequence}</p>}
        <p className="text-sm">
          {prompt}{' '}
          <strong className={`break-all ${monospace ? 'font-mono' : 'font-semibold'}`}>{expected}</strong>
        </p>
        <TextField
          label={fieldLabel}
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
          <Button type="submit" variant={tone === 'danger' ? 'danger' : 'primary'} loading={busy}>
            {confirmLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
