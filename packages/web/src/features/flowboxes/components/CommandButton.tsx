import type { FlowboxCommandName } from '@flowbox/shared';
import { Button } from '../../../components/Button.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';

type CommandButtonProps = {
  name: FlowboxCommandName;
  variant?: 'secondary' | 'danger';
  /** Why the command cannot be sent now; the button is then disabled and described by `reasonId`. */
  disabledReason: string | null;
  reasonId: string;
  loading: boolean;
  onClick: () => void;
};

/** A command's button: disabled with its reason announced (aria-describedby) when it cannot be sent. */
export function CommandButton({
  name,
  variant = 'secondary',
  disabledReason,
  reasonId,
  loading,
  onClick,
}: CommandButtonProps) {
  const { t } = useLanguage();
  return (
    <Button
      variant={variant}
      disabled={disabledReason !== null}
      aria-describedby={disabledReason ? reasonId : undefined}
      loading={loading}
      onClick={onClick}
    >
      {t(`commands.${name}`)}
    </Button>
  );
}
