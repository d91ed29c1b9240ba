import type { Automation, OpeningHours, ZoneProfile } from '@flowbox/shared';
import { useState } from 'react';
import { Alert } from '../../../components/Alert.tsx';
import { Button } from '../../../components/Button.tsx';
import { Card, DescriptionList } from '../../../components/Card.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { ANY_ROLE, canDo, useUser } from '../../auth/index.ts';
import { useAutomation } from '../api/get-automation.ts';
import { useExitAutomation } from '../api/exit-automation.ts';
import { useUpdateAutomation } from '../api/update-automation.ts';
import { formatVolume } from '../../consumption/index.ts';
import { flowNow } from '../flow.ts';
import { marginsNow } from '../margins.ts';
import { AutomationSettingsDialog } from './AutomationSettingsDialog.tsx';
import { ExitAutomationDialog } from './ExitAutomationDialog.tsx';
import type { ZoneRef } from '../../../lib/zone-ref.ts';

/**
 * spec §4 "no action is allowed until the user exits": shown on top of the zone while automatic
 * closing holds it, with the exit for those who may manage automatic closing.
 */
export function AutomationLockedBanner({ zoneRef, zoneName }: { zoneRef: ZoneRef; zoneName: string }) {
  const { t, language } = useLanguage();
  const user = useUser();
  const toast = useToast();
  const automation = useAutomation(zoneRef);
  const exit = useExitAutomation(zoneRef);
  const [exiting, setExiting] = useState(false);
  const data = automation.data;
  if (!data?.locked) return null;
  return (
    <div
      role="alert"
      data-testid="automation-locked"
      className="mb-6 rounded-xl border border-red-300 bg-red-50 p-4 text-red-900 dark:border-red-800 dark:bg-red-950/60 dark:text-red-100"
    >
      <p className="font-semibold">{t('automation.locked_title')}</p>
      <p className="mt-1 text-sm">
        {t('automation.locked_body', {
          trigger: t(`automation.trigger.${data.locked_by ?? 'volume'}`),
          time: formatDateTime(data.locked_at, language),
        })}
      </p>
      <p className="mt-1 text-sm">
        {data.close_confirmed_at
          ? t('automation.close_confirmed', { time: formatDateTime(data.close_confirmed_at, language) })
          : t('automation.close_pending')}
      </p>
      {canDo(user, ANY_ROLE, 'automation.manage') && (
        <Button variant="danger" className="mt-3" onClick={() => setExiting(true)}>
          {t('automation.exit')}
        </Button>
      )}
      <ExitAutomationDialog
        open={exiting}
        onClose={() => setExiting(false)}
        zoneName={zoneName}
        onConfirm={async (confirmName) => {
          await exit.mutateAsync(confirmName);
          setExiting(false);
          toast.success(t('automation.exited'));
        }}
      />
    </div>
  );
}

/** What the margins in force depend on: the zone's profile and opening hours, its building's clock. */
export type MarginsContext = {
  zone: { profile: ZoneProfile; effective_opening_hours: OpeningHours | null };
  timezone: string;
};

/** The zone's margins (those in force now, and why) and the flow under way, with the margins' form. */
export function AutomationCard({
  zoneRef,
  context,
}: {
  zoneRef: ZoneRef;
  /** Unknown while the building loads: the margins set show meanwhile. */
  context?: MarginsContext;
}) {
  const automation = useAutomation(zoneRef);
  const { t } = useLanguage();
  return (
    <Card title={t('automation.title')}>
      {automation.isError ? (
        <Alert>{automation.error.message}</Alert>
      ) : automation.data ? (
        <AutomationDetails zoneRef={zoneRef} automation={automation.data} context={context} />
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-400">…</p>
      )}
    </Card>
  );
}

function AutomationDetails({
  zoneRef,
  automation,
  context,
}: {
  zoneRef: ZoneRef;
  automation: Automation;
  context?: MarginsContext;
}) {
  const { t, language } = useLanguage();
  const user = useUser();
  const toast = useToast();
  const update = useUpdateAutomation(zoneRef);
  const [editing, setEditing] = useState(false);
  // The hour's end is compared with the time the card appeared; a live message re-renders it.
  const [shownAt] = useState(() => Date.now());
  const unit = t(`consumption.unit.${automation.volume_unit}`);
  const anyMargin = automation.volume_margin_enabled || automation.duration_margin_enabled;
  const state = automation.automatic_closing_enabled
    ? t('automation.enabled')
    : anyMargin
      ? t('automation.alert_only')
      : t('automation.disabled');
  const blocked =
    automation.detection_blocked_until && Date.parse(automation.detection_blocked_until) > shownAt
      ? automation.detection_blocked_until
      : null;
  const flow = flowNow(automation, shownAt);
  const now = context ? marginsNow(automation, context.zone, context.timezone, new Date(shownAt)) : null;
  const volume = (value: number) => formatVolume(value, unit, language);
  const minutes = (count: number) => t('automation.minutes', { count });
  // The margin in force now, and the one set beside it when they differ (off hours: halved).
  const margin = (set: number | null, inForce: number | null | undefined, show: (v: number) => string) =>
    set === null
      ? t('automation.margin_off')
      : inForce === undefined || inForce === null || inForce === set
        ? show(set)
        : t('automation.margin_now_set', { now: show(inForce), set: show(set) });
  return (
    <>
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">{t('automation.description')}</p>
      <div data-testid="automation-margins">
        <DescriptionList
          items={[
            { label: t('automation.state'), value: state },
            {
              label: t('automation.volume_margin'),
              value: margin(
                automation.volume_margin_enabled ? automation.volume_margin : null,
                now?.volume,
                volume,
              ),
            },
            {
              label: t('automation.duration_margin'),
              value: margin(
                automation.duration_margin_enabled ? automation.duration_margin_minutes : null,
                now?.minutes,
                minutes,
              ),
            },
            flow.state === 'stopped'
              ? {
                  label: t('automation.last_flow'),
                  value: t('automation.flow_stopped', {
                    volume: formatVolume(flow.volume, unit, language),
                    minutes: flow.minutes,
                    since: formatDateTime(flow.since, language),
                    stopped: formatDateTime(flow.stoppedAt, language),
                  }),
                }
              : {
                  label: t('automation.current_flow'),
                  value:
                    flow.state === 'running'
                      ? t('automation.flow_value', {
                          volume: formatVolume(flow.volume, unit, language),
                          minutes: flow.minutes,
                          since: formatDateTime(flow.since, language),
                        })
                      : t('automation.no_flow'),
                },
          ]}
        />
        {now && anyMargin && (
          <p className="mt-3 text-sm text-slate-700 dark:text-slate-300">
            {t(`automation.margins_reason.${now.reason}`)}
          </p>
        )}
      </div>
      {blocked && (
        <p className="mt-3 text-sm text-amber-800 dark:text-amber-300">
          {t('automation.blocked_until', { time: formatDateTime(blocked, language) })}
        </p>
      )}
      {canDo(user, ANY_ROLE, 'automation.manage') && !automation.locked && (
        <Button variant="secondary" className="mt-4" onClick={() => setEditing(true)}>
          {t('automation.edit')}
        </Button>
      )}
      {editing && (
        <AutomationSettingsDialog
          open
          onClose={() => setEditing(false)}
          automation={automation}
          zoneRef={zoneRef}
          onSave={async (input) => {
            await update.mutateAsync(input);
            setEditing(false);
            toast.success(t('automation.saved'));
          }}
        />
      )}
    </>
  );
}
