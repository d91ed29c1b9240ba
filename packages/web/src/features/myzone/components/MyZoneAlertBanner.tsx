import { alertDetailsText, displayLocalDateTime, type Alert, type Language } from '@flowbox/shared';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { FoldButton } from '../../../components/FoldButton.tsx';
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

/** Wide screens have room for the advice; a phone folds it so the water and away mode stay in view. */
const wideScreen = () =>
  typeof window !== 'undefined' && window.matchMedia?.('(min-width: 640px)').matches === true;

/**
 * "What to do now", folded behind its button on a phone (issue 33: during a leak, the alert, "Was
 * this you?", the water's button and away mode on the first screen at 390 px), with the way to
 * all the zone's alerts on the same line.
 */
function Advice({ category, zoneId }: { category: Alert['category']; zoneId: string }) {
  const { t } = useLanguage();
  const [open, setOpen] = useState(wideScreen);
  return (
    <>
      <div className="mt-1 flex flex-wrap items-center justify-between gap-x-3">
        <h3 className="text-base font-semibold">
          <FoldButton
            open={open}
            controls="myzone-advice"
            onToggle={() => setOpen((o) => !o)}
            className="-ml-1 inline-flex min-h-11 items-center gap-1 rounded px-1 font-semibold focus-visible:outline-2 focus-visible:outline-sky-600"
          >
            {t('myzone.what_to_do')}
          </FoldButton>
        </h3>
        <Link to={paths.myZoneAlerts.getHref(zoneId)} className={`${LINK} py-3 text-sm`}>
          {t('myzone.all_alerts')}
        </Link>
      </div>
      <p id="myzone-advice" hidden={!open} className="mb-1 text-base" data-testid="myzone-advice">
        {t(`myzone.advice.${category}`)}
      </p>
    </>
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
 * The zone's open alert, first on the page, in plain words: what happened, "Was this you?", and
 * what to do now (folded on a phone). The other open alerts are counted under it; none, the way
 * to the past ones. Kept live by the alerts' sync.
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
      className="rounded-xl border-2 border-red-600 bg-red-50 px-4 pt-3 pb-2 text-red-950 sm:px-5 sm:pt-5 dark:border-red-500 dark:bg-red-950/60 dark:text-red-50"
    >
      <h2 id="myzone-alert-title" className="text-lg font-bold">
        {t('myzone.alert_title', { category: t(`alerts.category.${first.category}`) })}
      </h2>
      {details && <p className="mt-1 text-base break-words">{details}</p>}
      <p className="mt-1 text-sm">{t('myzone.alert_since', { date: since(first, language) })}</p>
      {wasThisYou(first)}
      {others.length > 0 && (
        <p className="mt-3 text-sm">{t('myzone.alert_more', { count: others.length })}</p>
      )}
      <Advice category={first.category} zoneId={zoneId} />
    </section>
  );
}
