import { LEAK_FLOW_S, type Zone } from '@flowbox/shared';
import { useState } from 'react';
import { Alert } from '../../../components/Alert.tsx';
import { Button } from '../../../components/Button.tsx';
import { Card } from '../../../components/Card.tsx';
import { ConfirmActionDialog } from '../../../components/ConfirmActionDialog.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { errorMessage } from '../../../lib/forms.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useUpdateZone, type ZoneRef } from '../../zones/index.ts';

/**
 * The zone's leak-detection mode, switched by an end user its manager lets control the valve
 * (docs/permissions.md: a zone update with `leak_detection_mode` only). Both ways confirmed. It is
 * an away mode (docs/automation.md): while on, any flow raises a leak alert; off, only a flow that
 * lasts LEAK_FLOW_S does. It closes nothing.
 */
export function MyLeakDetectionCard({ zoneRef, zone }: { zoneRef: ZoneRef; zone: Zone }) {
  const { t } = useLanguage();
  const toast = useToast();
  const update = useUpdateZone(zoneRef);
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const on = zone.leak_detection_mode;
  const hours = { hours: LEAK_FLOW_S / 3600 };
  return (
    <Card title={t('myzone.leak_title')} headingId="myzone-leak-title">
      <p className="text-base" data-testid="myzone-leak" data-on={on}>
        {on ? t('myzone.leak_on') : t('myzone.leak_off', hours)}
      </p>
      <Button
        variant={on ? 'secondary' : 'primary'}
        className="mt-3 min-h-12 w-full text-base sm:w-auto"
        onClick={() => setConfirming(true)}
      >
        {on ? t('myzone.leak_turn_off') : t('myzone.leak_turn_on')}
      </Button>
      {failure && (
        <div className="mt-3">
          <Alert title={t('dialog.error')}>{failure}</Alert>
        </div>
      )}
      <ConfirmActionDialog
        open={confirming}
        tone={on ? 'danger' : 'default'}
        title={on ? t('myzone.leak_confirm_off_title') : t('myzone.leak_confirm_on_title')}
        text={on ? t('myzone.leak_confirm_off_text', hours) : t('myzone.leak_confirm_on_text')}
        confirmLabel={on ? t('myzone.leak_turn_off') : t('myzone.leak_turn_on')}
        onClose={() => setConfirming(false)}
        onConfirm={async () => {
          setFailure(null);
          try {
            await update.mutateAsync({ leak_detection_mode: !on });
            toast.success(t('myzone.leak_saved'));
          } catch (error) {
            setFailure(errorMessage(error));
          }
          setConfirming(false);
        }}
      />
    </Card>
  );
}
