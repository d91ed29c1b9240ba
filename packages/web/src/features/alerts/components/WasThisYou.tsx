import { ANSWERABLE_ALERT_CATEGORIES, type Alert, type AlertAnswerValue } from '@flowbox/shared';
import { useId } from 'react';
import { Button } from '../../../components/Button.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useUser } from '../../auth/index.ts';
import { useAnswerAlert } from '../api/answer-alert.ts';

/** Whether an alert asks "Was this you?" (a leak or an abnormal use, docs/alerts.md). */
export const asksWasThisYou = (alert: Pick<Alert, 'category'>) =>
  ANSWERABLE_ALERT_CATEGORIES.includes(alert.category);

/**
 * "Was this you?" on a leak or abnormal-use alert (issue 33): two large buttons, the one given
 * pressed (aria-pressed), a new answer replacing it. The server keeps it for the zone's managers
 * and the backtest. Shown to the zone's end users and managers (a plumber is not asked).
 */
export function WasThisYou({ alert, compact = false }: { alert: Alert; compact?: boolean }) {
  const { t } = useLanguage();
  const user = useUser();
  const toast = useToast();
  const answer = useAnswerAlert();
  const headingId = useId();
  if (!asksWasThisYou(alert)) return null;
  const mine = alert.answers?.find((a) => a.user_id === user.id)?.answer;
  const give = (value: AlertAnswerValue) =>
    answer.mutate(
      { alertId: alert.id, answer: value },
      {
        onSuccess: () =>
          toast.success(t(value === 'me' ? 'alerts.answer.saved_me' : 'alerts.answer.saved_not_me')),
        onError: (error) => toast.error(error.message),
      },
    );
  const size = compact ? 'px-3 py-1' : 'min-h-12 flex-1 text-base sm:flex-none';
  return (
    <div role="group" aria-labelledby={headingId} className="mt-3" data-testid="was-this-you">
      <p id={headingId} className={compact ? 'text-sm font-medium' : 'text-base font-semibold'}>
        {t('alerts.answer.question')}
      </p>
      <div className="mt-2 flex flex-wrap gap-2">
        {(['me', 'not_me'] as const).map((value) => (
          <Button
            key={value}
            variant={mine === value ? 'primary' : 'secondary'}
            className={size}
            aria-pressed={mine === value}
            loading={answer.isPending && answer.variables?.answer === value}
            onClick={() => give(value)}
          >
            {t(value === 'me' ? 'alerts.answer.me' : 'alerts.answer.not_me')}
          </Button>
        ))}
      </div>
      {mine && (
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300" data-testid="was-this-you-given">
          {t(mine === 'me' ? 'alerts.answer.given_me' : 'alerts.answer.given_not_me')}
        </p>
      )}
    </div>
  );
}

/**
 * What people answered on the alert, for its zone's managers: "Ann Resident: it was me · Ben
 * Flatmate: not me". Nothing when nobody answered.
 */
export function AlertAnswersLine({ alert }: { alert: Alert }) {
  const { t } = useLanguage();
  const answers = alert.answers ?? [];
  if (answers.length === 0) return null;
  return (
    <p className="mt-1 flex flex-wrap items-center gap-1 text-xs" data-testid="alert-answers">
      <span className="rounded-full bg-violet-100 px-2 py-0.5 font-semibold text-violet-900 dark:bg-violet-900/50 dark:text-violet-100">
        {t('alerts.answer.badge')}
      </span>
      {answers.map((a, i) => (
        <span key={`${a.user_id ?? ''}-${i}`} className="text-slate-700 dark:text-slate-300">
          {i > 0 && '· '}
          {t(a.answer === 'me' ? 'alerts.answer.by_me' : 'alerts.answer.by_not_me', { name: a.user_name })}
        </span>
      ))}
    </p>
  );
}
