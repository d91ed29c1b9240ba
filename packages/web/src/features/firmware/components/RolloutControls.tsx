import { targetLabel } from '../format.ts';
import { ROLES, type Rollout, type RolloutAction } from '@flowbox/shared';
import { useState } from 'react';
import { Button } from '../../../components/Button.tsx';
import { ConfirmActionDialog } from '../../../components/ConfirmActionDialog.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { errorMessage } from '../../../lib/forms.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { ANY_ROLE, canDo, useUser } from '../../auth/index.ts';
import { useRolloutAction } from '../api/rollout-action.ts';
import { availableActions } from '../rollout-state.ts';

/** Pause, resume or cancel, as the rollout's state allows; each asks first. */
export function RolloutControls({ rollout }: { rollout: Rollout }) {
  const { t } = useLanguage();
  const user = useUser();
  const toast = useToast();
  const action = useRolloutAction(rollout.id);
  const [asking, setAsking] = useState<RolloutAction | null>(null);
  if (!canDo(user, ANY_ROLE, 'firmware.update')) return null;
  const actions = availableActions(rollout, user.role === ROLES.flovea_manager);
  return (
    <>
      {actions.map((name) => (
        <Button
          key={name}
          variant={name === 'cancel' ? 'danger' : 'secondary'}
          onClick={() => setAsking(name)}
        >
          {t(`firmware.action.${name}`)}
        </Button>
      ))}
      <ConfirmActionDialog
        open={asking !== null}
        title={asking ? t(`firmware.action.${asking}_title`) : ''}
        text={
          asking
            ? t(`firmware.action.${asking}_text`, {
                version: rollout.version,
                target: targetLabel(rollout.target, t('firmware.place.whole_fleet')),
              })
            : ''
        }
        confirmLabel={asking ? t(`firmware.action.${asking}`) : ''}
        tone={asking === 'resume' ? 'default' : 'danger'}
        onClose={() => setAsking(null)}
        onConfirm={async () => {
          if (!asking) return;
          try {
            await action.mutateAsync(asking);
            toast.success(t(`firmware.action.${asking}_done`));
          } catch (error) {
            toast.error(errorMessage(error));
          }
          setAsking(null);
        }}
      />
    </>
  );
}
