import { displayDate, localDateTime, type AwayMode, type Language } from '@flowbox/shared';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/Button.tsx';
import { Card } from '../../../components/Card.tsx';
import { Checkbox } from '../../../components/Checkbox.tsx';
import { DateField } from '../../../components/DateField.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import type { ZoneRef } from '../../../lib/zone-ref.ts';
import { useAwayMode } from '../api/get-away-mode.ts';
import { useSaveAwayMode } from '../api/save-away-mode.ts';
import { ANY_ROLE, canDo, END_USER, hasRole, useUser } from '../../auth/index.ts';

const DAY_MS = 86_400_000;

/** "12/20/2026 08:00" from the building's "2026-12-20T08:00". */
function shown(local: string | null, language: Language): string {
  if (!local) return '';
  const [date = '', time = ''] = local.split('T');
  return `${displayDate(date, language)} ${time}`;
}

type Draft = {
  from_date: string;
  from_time: string;
  until_date: string;
  until_time: string;
  close_on_flow: boolean;
};

/** A first period: from now (the building's clock) for a week, until 18:00; or the one in force. */
function draftOf(away: AwayMode): Draft {
  const now = Date.now();
  const [fromDate = '', fromTime = ''] = (
    away.state === 'scheduled' || away.state === 'away' ? away.from_local! : localDateTime(now, away.timezone)
  ).split('T');
  const [untilDate = '', untilTime = ''] = (
    away.state === 'scheduled' || away.state === 'away'
      ? away.until_local!
      : `${localDateTime(now + 7 * DAY_MS, away.timezone).slice(0, 10)}T18:00`
  ).split('T');
  return {
    from_date: fromDate,
    from_time: fromTime,
    until_date: untilDate,
    until_time: untilTime,
    close_on_flow: away.close_on_flow,
  };
}

function AwayForm({
  away,
  zoneRef,
  mayClose,
  onDone,
}: {
  away: AwayMode;
  zoneRef: ZoneRef;
  mayClose: boolean;
  onDone: () => void;
}) {
  const { t } = useLanguage();
  const toast = useToast();
  const save = useSaveAwayMode(zoneRef);
  const [draft, setDraft] = useState(() => draftOf(away));
  const [problem, setProblem] = useState<string | null>(null);
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    save.mutate(
      { ...draft, close_on_flow: mayClose && draft.close_on_flow },
      {
        onSuccess: () => {
          toast.success(t('away.saved'));
          onDone();
        },
        onError: (error) =>
          setProblem(
            error instanceof ApiRequestError && error.details?.[0] ? error.details[0].message : error.message,
          ),
      },
    );
  }
  return (
    <form onSubmit={submit} className="space-y-3" aria-label={t('away.form')} data-testid="away-form">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        {t('away.times_in', { timezone: away.timezone })}
      </p>
      <div className="grid grid-cols-[1fr_8rem] gap-3">
        <DateField
          label={t('away.from_date')}
          name="from_date"
          value={draft.from_date}
          onChange={(v) => set({ from_date: v })}
          required
        />
        <TextField
          label={t('away.from_time')}
          name="from_time"
          type="time"
          value={draft.from_time}
          onChange={(e) => set({ from_time: e.target.value })}
          required
        />
        <DateField
          label={t('away.until_date')}
          name="until_date"
          value={draft.until_date}
          onChange={(v) => set({ until_date: v })}
          required
        />
        <TextField
          label={t('away.until_time')}
          name="until_time"
          type="time"
          value={draft.until_time}
          onChange={(e) => set({ until_time: e.target.value })}
          required
        />
      </div>
      {mayClose ? (
        <Checkbox
          name="close_on_flow"
          label={t('away.close_on_flow')}
          checked={draft.close_on_flow}
          onChange={(e) => set({ close_on_flow: e.target.checked })}
        />
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-400">{t('away.close_needs_permission')}</p>
      )}
      {problem && (
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
          {problem}
        </p>
      )}
      <div className="flex flex-wrap gap-2 [&_button]:min-h-12 [&_button]:flex-1 sm:[&_button]:flex-none">
        <Button type="submit" loading={save.isPending}>
          {t('away.save')}
        </Button>
        <Button type="button" variant="secondary" onClick={onDone}>
          {t('common.cancel')}
        </Button>
      </div>
    </form>
  );
}

/**
 * Away mode on a zone's home (issue 33, docs/automation.md "Away mode"): the period in force or
 * coming, what it does (alert on any flow; close the water if chosen), a form to set or change it,
 * and "I'm back" to switch it off. Closing on flow is offered only to whoever may choose it.
 */
export function AwayModeCard({ zoneRef }: { zoneRef: ZoneRef }) {
  const { t, language } = useLanguage();
  const user = useUser();
  // docs/residents.md "Away mode": the zone's end users (closing with `valves.control`) and its
  // managers with `automation.manage`; a plumber reads it only.
  const endUser = hasRole(user, END_USER);
  const mayChange = endUser || canDo(user, ANY_ROLE, 'automation.manage');
  const mayClose = endUser ? canDo(user, END_USER, 'valves.control') : mayChange;
  const toast = useToast();
  const away = useAwayMode(zoneRef);
  const save = useSaveAwayMode(zoneRef);
  const [editing, setEditing] = useState(false);
  const data = away.data;
  const on = data?.state === 'away' || data?.state === 'scheduled';
  const back = () =>
    save.mutate(null, {
      onSuccess: () => toast.success(t('away.cleared')),
      onError: (error) => toast.error(error.message),
    });
  // Its one action beside its title, so that a phone shows it at once under the alert and the water
  // (issue 33, docs/residents.md): "I'm back" when on, "Set away mode" when off.
  const action =
    data && mayChange && !editing ? (
      <div className="min-w-0 flex-1 sm:flex-none [&_button]:min-h-12 [&_button]:w-full sm:[&_button]:w-auto">
        {on ? (
          <Button loading={save.isPending} onClick={back}>
            {t('away.back')}
          </Button>
        ) : (
          <Button variant="secondary" onClick={() => setEditing(true)}>
            {t('away.set')}
          </Button>
        )}
      </div>
    ) : undefined;
  return (
    <Card title={t('away.title')} headingId="away-title" actions={action}>
      <div data-testid="away-card" data-state={data?.state ?? 'loading'}>
        {data && on && !editing && (
          <div className="space-y-2">
            <p
              className={`rounded-lg px-4 py-3 text-base font-semibold ${data.state === 'away' ? 'bg-violet-100 text-violet-950 dark:bg-violet-900/50 dark:text-violet-50' : 'bg-slate-100 text-slate-900 dark:bg-slate-800 dark:text-slate-100'}`}
            >
              {t(data.state === 'away' ? 'away.on' : 'away.scheduled', {
                from: shown(data.from_local, language),
                until: shown(data.until_local, language),
              })}
            </p>
            <p className="text-sm text-slate-700 dark:text-slate-300">
              {t(data.close_on_flow ? 'away.does_close' : 'away.does_alert')}
            </p>
            {data.closed_at && (
              <p className="text-sm font-medium text-amber-900 dark:text-amber-200">
                {t('away.closed_at', {
                  date: shown(localDateTime(Date.parse(data.closed_at), data.timezone), language),
                })}
              </p>
            )}
            {mayChange && (
              <div className="[&_button]:min-h-12 [&_button]:w-full sm:[&_button]:w-auto">
                <Button variant="secondary" onClick={() => setEditing(true)}>
                  {t('away.change')}
                </Button>
              </div>
            )}
          </div>
        )}
        {data && !on && !editing && (
          <p className="text-base text-slate-800 dark:text-slate-200">{t('away.explain')}</p>
        )}
        {data && editing && (
          <AwayForm away={data} zoneRef={zoneRef} mayClose={mayClose} onDone={() => setEditing(false)} />
        )}
        {away.isError && <p role="alert">{away.error.message}</p>}
      </div>
    </Card>
  );
}
