import type { Flowbox, Floor, Zone } from '@flowbox/shared';
import { useState } from 'react';
import { Alert } from '../../../components/Alert.tsx';
import { Button } from '../../../components/Button.tsx';
import { Dialog } from '../../../components/Dialog.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { errorMessage } from '../../../lib/forms.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import type { ZoneRef } from '../../zones/index.ts';
import { useRefusePairing } from '../api/refuse-pairing.ts';
import { PairingPrepareForm } from './PairingPrepareForm.tsx';
import { PairingReview } from './PairingReview.tsx';
import { PairingStepper } from './PairingStepper.tsx';
import { PairingWaiting } from './PairingWaiting.tsx';

type PairingDialogProps = {
  open: boolean;
  zoneRef: ZoneRef;
  zone: Zone;
  floors: readonly Floor[] | undefined;
  /** The flowbox being paired, as the zone's list (kept live) shows it; none before step 1. */
  flowbox: Flowbox | undefined;
  onPrepared: (flowbox: Flowbox) => void;
  onClose: () => void;
};

/**
 * spec §2/§4 pairing in three steps. The step follows the flowbox's pairing state, which the live
 * channel updates: prepared (init) waits for the device, announced (pending) is reviewed.
 */
export function PairingDialog({
  open,
  zoneRef,
  zone,
  floors,
  flowbox,
  onPrepared,
  onClose,
}: PairingDialogProps) {
  const { t } = useLanguage();
  const step = !flowbox ? 1 : flowbox.pairing_state === 'init' ? 2 : 3;
  return (
    <Dialog open={open} onClose={onClose} title={t('pairing.title')}>
      <PairingStepper current={step} />
      <div data-testid="pairing-step" data-step={step}>
        {!flowbox ? (
          <PairingPrepareForm
            zoneRef={zoneRef}
            floors={floors}
            defaultFloorId={zone.floor_id}
            onCancel={onClose}
            onPrepared={onPrepared}
          />
        ) : flowbox.pairing_state === 'init' ? (
          <WaitingStep zoneRef={zoneRef} flowbox={flowbox} onClose={onClose} />
        ) : (
          <PairingReview
            flowboxRef={{ ...zoneRef, flowboxId: flowbox.id }}
            flowbox={flowbox}
            zone={zone}
            onDone={onClose}
          />
        )}
      </div>
    </Dialog>
  );
}

/** Step 2 with its way out: close (the pairing stays prepared) or give up on this device. */
function WaitingStep({
  zoneRef,
  flowbox,
  onClose,
}: {
  zoneRef: ZoneRef;
  flowbox: Flowbox;
  onClose: () => void;
}) {
  const { t } = useLanguage();
  const toast = useToast();
  const refuse = useRefusePairing({ ...zoneRef, flowboxId: flowbox.id });
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <div className="space-y-4">
      <PairingWaiting flowbox={flowbox} />
      {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
      <p className="text-xs text-slate-500 dark:text-slate-400">{t('pairing.cancel_hint')}</p>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button
          variant="danger"
          loading={refuse.isPending}
          onClick={() =>
            void refuse.mutateAsync().then(
              () => {
                toast.success(t('pairing.toast_refused'));
                onClose();
              },
              (error: unknown) => setFailure(errorMessage(error)),
            )
          }
        >
          {t('pairing.cancel_pairing')}
        </Button>
        <Button variant="secondary" onClick={onClose}>
          {t('common.close')}
        </Button>
      </div>
    </div>
  );
}
