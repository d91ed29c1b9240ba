import { Link } from 'react-router';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { ANY_ROLE, canDo, useUser } from '../../auth/index.ts';
import type { ZoneRef } from '../../zones/index.ts';

/** Why nothing can be scheduled here, and where to change it (the zone's settings). */
export function NotAuthorisedNotice({ zoneRef, extra }: { zoneRef: ZoneRef; extra?: string }) {
  const { t } = useLanguage();
  const user = useUser();
  const { customerId, siteId, buildingId, zoneId } = zoneRef;
  const mayEdit = canDo(user, ANY_ROLE, 'buildings.manage');
  return (
    <div
      role="note"
      className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-100"
    >
      {/* Who cannot open the zone's settings (a resident, a manager without buildings.manage) is told whom to ask. */}
      <p>{t(mayEdit ? 'schedules.not_authorised' : 'schedules.not_authorised_ask')}</p>
      {extra && <p className="mt-1">{extra}</p>}
      {mayEdit && (
        <Link
          to={paths.zoneEdit.getHref(customerId, siteId, buildingId, zoneId)}
          className="mt-2 inline-block font-medium text-sky-700 hover:underline dark:text-sky-400"
        >
          {t('schedules.edit_zone')}
        </Link>
      )}
    </div>
  );
}
