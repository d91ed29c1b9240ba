import { ROLES, type FirmwareRelease } from '@flowbox/shared';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useUser } from '../../auth/index.ts';

/** To whom an image is released: every customer, or (as the provider sees it) how many; others see their own. */
export function ReleaseText({ release }: { release: FirmwareRelease }) {
  const { t } = useLanguage();
  const user = useUser();
  if (release === 'all') return <>{t('firmware.release_all')}</>;
  if (user.role !== ROLES.flovea_manager) return <>{t('firmware.release_yours')}</>;
  return <>{t('firmware.release_customers', { count: release.length })}</>;
}
