import type { User } from '@flowbox/shared';
import { useLanguage } from '../lib/i18n/index.ts';
import { Badge, type BadgeTone } from './Badge.tsx';

const TONE_OF: Record<User['status'], BadgeTone> = { active: 'good', suspended: 'bad', invited: 'warn' };

/** An account's status (active, invited, suspended), wherever a person is listed or shown. */
export function UserStatusBadge({ status }: { status: User['status'] }) {
  const { t } = useLanguage();
  return <Badge tone={TONE_OF[status]}>{t(`managers.status_${status}`)}</Badge>;
}
