import type { FirmwareFailureReason, FirmwareSkipReason } from '@flowbox/shared';
import { useLanguage } from '../../../lib/i18n/index.ts';

/** Why an update failed or was skipped, in plain words (docs/firmware.md). */
export function ReasonText({ reason }: { reason: FirmwareFailureReason | FirmwareSkipReason }) {
  const { t } = useLanguage();
  return <>{t(`firmware.reason.${reason}`)}</>;
}
