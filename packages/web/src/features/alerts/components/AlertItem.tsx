import {
  alertDetailsText,
  displayLocalDateTime,
  type Alert,
  type AlertTransition,
  type Language,
} from '@flowbox/shared';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/Button.tsx';
import { Dialog } from '../../../components/Dialog.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { useLanguage, type TranslationKey } from '../../../lib/i18n/index.ts';
import { numberFormat } from '../../../lib/intl.ts';
import { paths } from '../../../paths.ts';
import { END_USER, hasRole, MANAGER_OR_END_USER, useUser } from '../../auth/index.ts';
import { useAlertTransition } from '../api/transition-alert.ts';
import { CallPlumberButton } from './CallPlumber.tsx';
import { AlertAnswersLine, WasThisYou } from './WasThisYou.tsx';

const STATE_TONE = {
  open: 'bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-200',
  silenced: 'bg-amber-100 text-amber-900 dark:bg-amber-900/50 dark:text-amber-100',
  resolved: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900/50 dark:text-emerald-200',
} as const;

const TOAST: Record<AlertTransition, TranslationKey> = {
  silence: 'alerts.silenced_toast',
  unsilence: 'alerts.unsilenced_toast',
  resolve: 'alerts.resolved_toast',
};

const LINK =
  'rounded text-sky-700 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-sky-600 dark:text-sky-400';

/** The building's clock, not the browser's: the alert happened there (docs/alerts.md). */
function buildingTime(alert: Alert, iso: string, language: Language): string {
  try {
    return displayLocalDateTime(new Date(iso), alert.building_timezone, language);
  } catch {
    return iso;
  }
}

/** "0.4 s", "12 s", "3 min": how long after the reading its first notification went. */
function delayText(seconds: number, language: Language): string {
  const shown = Math.max(0, seconds);
  if (shown < 60)
    return `${numberFormat(language, { maximumFractionDigits: shown < 10 ? 1 : 0 }).format(shown)} s`;
  return `${numberFormat(language, { maximumFractionDigits: 0 }).format(shown / 60)} min`;
}

/**
 * One alert: what happened (a sentence in the building's unit and time), where (links to its zone
 * and flowbox), when, how often, its state, and what may be done with it.
 */
export function AlertItem({
  alert,
  canManage,
  canCallPlumber,
}: {
  alert: Alert;
  canManage: boolean;
  canCallPlumber: boolean;
}) {
  const { t, language } = useLanguage();
  const toast = useToast();
  const transition = useAlertTransition();
  const [confirming, setConfirming] = useState(false);
  const category = t(`alerts.category.${alert.category}`);

  function run(name: AlertTransition) {
    transition.mutate(
      { alert, transition: name },
      {
        onSuccess: () => toast.success(t(TOAST[name])),
        onError: (error) => toast.error(error.message),
        onSettled: () => setConfirming(false),
      },
    );
  }

  const details = alertDetailsText(alert, language, {
    volumeUnit: alert.building_volume_unit,
    timezone: alert.building_timezone,
  });
  // An end user opens its zone home; the flowbox page is the managers' and plumbers' (docs/permissions.md).
  const user = useUser();
  const endUser = hasRole(user, END_USER);
  // "Was this you?" (issue 33): asked of the zone's end users and managers, not of its plumber.
  const asked = hasRole(user, MANAGER_OR_END_USER);
  const zoneHref = endUser
    ? paths.myZone.getHref(alert.zone_id)
    : paths.zone.getHref(alert.customer_id, alert.site_id, alert.building_id, alert.zone_id);
  return (
    <li className="px-4 py-3 sm:px-5" data-testid="alert-item" data-state={alert.state}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-medium text-slate-900 dark:text-slate-100">
            {category}
            {alert.critical && (
              <span className="ml-2 rounded-full bg-red-700 px-2 py-0.5 text-xs font-semibold text-white">
                {t('alerts.critical')}
              </span>
            )}
          </p>
          {details && (
            <p
              className="mt-1 text-sm break-words text-slate-800 dark:text-slate-200"
              data-testid="alert-details"
            >
              {details}
            </p>
          )}
          <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
            <Link to={zoneHref} className={LINK}>
              {alert.zone_name}
            </Link>{' '}
            · {alert.building_name}
            {alert.flowbox_serial && (
              <>
                {' '}
                ·{' '}
                {alert.flowbox_id && !endUser ? (
                  <Link
                    to={paths.flowbox.getHref(
                      alert.customer_id,
                      alert.site_id,
                      alert.building_id,
                      alert.zone_id,
                      alert.flowbox_id,
                    )}
                    className={LINK}
                  >
                    {t('alerts.flowbox', { serial: alert.flowbox_serial })}
                  </Link>
                ) : (
                  t('alerts.flowbox', { serial: alert.flowbox_serial })
                )}
              </>
            )}
          </p>
          <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            {t('alerts.opened_at', { date: buildingTime(alert, alert.opened_at, language) })},{' '}
            {t('alerts.last_seen', { date: buildingTime(alert, alert.last_seen_at, language) })} ·{' '}
            {t('alerts.count', { count: alert.count })}
          </p>
          {alert.state === 'resolved' && (
            <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
              {alert.resolved_automatically
                ? t('alerts.resolved_auto')
                : t('alerts.resolved_by', { name: alert.resolved_by ?? '' })}
            </p>
          )}
          {alert.first_push && (
            <p className="mt-1 text-xs text-slate-600 dark:text-slate-400" data-testid="alert-first-push">
              {alert.first_push.after_s === null
                ? t('alerts.first_push_at', { date: buildingTime(alert, alert.first_push.sent_at, language) })
                : t('alerts.first_push', { after: delayText(alert.first_push.after_s, language) })}
            </p>
          )}
          {!endUser && <AlertAnswersLine alert={alert} />}
          {asked && <WasThisYou alert={alert} compact />}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATE_TONE[alert.state]}`}>
            {t(`alerts.state.${alert.state}`)}
          </span>
          {canManage && alert.state === 'open' && (
            <Button
              variant="secondary"
              className="px-3 py-1"
              loading={transition.isPending}
              onClick={() => run('silence')}
            >
              {t('alerts.silence')}
              <span className="sr-only">
                : {category}, {alert.zone_name}
              </span>
            </Button>
          )}
          {canManage && alert.state === 'silenced' && (
            <Button
              variant="secondary"
              className="px-3 py-1"
              loading={transition.isPending}
              onClick={() => run('unsilence')}
            >
              {t('alerts.unsilence')}
              <span className="sr-only">
                : {category}, {alert.zone_name}
              </span>
            </Button>
          )}
          {canCallPlumber && alert.state !== 'resolved' && <CallPlumberButton alert={alert} />}
          {canManage && alert.state !== 'resolved' && (
            <Button variant="primary" className="px-3 py-1" onClick={() => setConfirming(true)}>
              {t('alerts.resolve')}
              <span className="sr-only">
                : {category}, {alert.zone_name}
              </span>
            </Button>
          )}
        </div>
      </div>
      <Dialog open={confirming} title={t('alerts.resolve_title')} onClose={() => setConfirming(false)}>
        <p className="text-sm">{t('alerts.resolve_text')}</p>
        <p className="mt-2 text-sm font-medium">
          {category} · {alert.zone_name}
        </p>
        <div className="mt-5 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setConfirming(false)}>
            {t('common.cancel')}
          </Button>
          <Button loading={transition.isPending} onClick={() => run('resolve')}>
            {t('alerts.resolve')}
          </Button>
        </div>
      </Dialog>
    </li>
  );
}
