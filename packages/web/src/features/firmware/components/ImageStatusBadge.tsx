import type { FirmwareImageStatus } from '@flowbox/shared';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { Badge } from '../../../components/Badge.tsx';

const TONES = { active: 'good', deprecated: 'warn', withdrawn: 'neutral' } as const satisfies Record<
  FirmwareImageStatus,
  string
>;

export function ImageStatusBadge({ status }: { status: FirmwareImageStatus }) {
  const { t } = useLanguage();
  return (
    <Badge tone={TONES[status]}>
      <span className="whitespace-nowrap">{t(`firmware.image_status.${status}`)}</span>
    </Badge>
  );
}
