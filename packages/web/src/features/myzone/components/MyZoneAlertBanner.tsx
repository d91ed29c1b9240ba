import { alertDetailsText, displayLocalDateTime, type Alert, type Language } from '@flowbox/shared';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { useAlerts } from '../../alerts/index.ts';

const LINK =
  'rounded font-medium underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-sky-600';

/** The way to the zone's alerts, now and past (issue 33), when none is open. */
function AlertsLink({ zoneId }: { zoneId: string }) {
  const { t } = useLanguage();
  return (
    <p className="text-sm">
      <Link
        to={paths.myZoneAlerts.getHref(zoneId)}
        className={`${LINK} text-sky-800 dark:text-sky-300`}
        data-testid="myzone-alerts-link"
      >
        {t('myzone.alert_history')}
      </Link>
    </p>
  );
}

/** The alert told first: a leak, then whatever is critical, then the newest. */
const URGENCY = (alert: Alert) =>
  (alert.category === 'leakage_detection' ? 4 : 0) +
  (alert.category.startsWith('abnormal_water_consumption') ? 2 : 0) +
  (alert.critical ? 1 : 0);

function since(alert: Alert, language: Language): string {
  try {
    return displayLocalDateTime(new Date(alert.opened_at), alert.building_timezone, language);
  } catch {
    return alert.opened_at;
  }
}

/**
 * The zone's open alert, first on the page, in plain words: what happened and what to do now. The
 * other open alerts are counted under it; none, nothing is shown. Kept live by the alerts' sync.
 */
export function MyZoneAlertBanner({
  zoneId,
  wasThisYou,
}: {
  zoneId: string;
  wasThisYou: (alert: Alert) => ReactNode;
}) {
  const { t, language } = useLanguage();
  const alerts = useAlerts({ zone_id: zoneId, state: 'active' }, 10);
  const items = alerts.data?.pages.flatMap((page) => page.items) ?? [];
  // No alert now: the way to the past ones (issue 33).
  if (items.length === 0) return <AlertsLink zoneId={zoneId} />;
  const [first, ...others] = [...items].sort((a, b) => URGENCY(b) - URGENCY(a));
  if (!first) return null;
  const details = alertDetailsText(first, language, {
    volumeUnit: first.building_volume_unit,
    timezone: first.building_timezone,
  });
  return (
    <section
      role="alert"
      aria-labelledby="myzone-alert-title"
      data-testid="myzone-alert"
      data-category={first.category}
      className="rounded-xl border-2 border-red-600 bg-red-50 p-4 text-red-950 sm:p-5 dark:border-red-500 dark:bg-red-950/60 dark:text-red-50"
    >
      <h2 id="myzone-alert-title" className="text-lg font-bold">
        {t('myzone.alert_title', { category: t(`alerts.category.${first.category}`) })}
      </h2>
      {details && <p className="mt-1 text-base break-words">{details}</p>}
      <p className="mt-1 text-sm">{t('myzone.alert_since', { date: since(first, language) })}</p>
      {wasThisYou(first)}
      <h3 className="mt-3 text-base font-semibold">{t('myzone.what_to_do')}</h3>
      <p className="mt-1 text-base" data-testid="myzone-advice">
        {t(`myzone.advice.${first.category}`)}
      </p>
      {others.length > 0 && (
        <p className="mt-3 text-sm">{t('myzone.alert_more', { count: others.length })}</p>
      )}
      <p className="mt-3 text-sm">
        <Link to={paths.myZoneAlerts.getHref(zoneId)} className={LINK}>
          {t('myzone.all_alerts')}
        </Link>
      </p>
    </section>
  );
}
