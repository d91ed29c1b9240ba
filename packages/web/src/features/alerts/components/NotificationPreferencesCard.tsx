import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_SEVERITIES,
  type ChannelTiming,
  type NotificationPreferences,
  type NotificationPreferencesAnswer,
  type NotificationSeverity,
} from '@flowbox/shared';
import { useEffect, useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Alert } from '../../../components/Alert.tsx';
import { Button } from '../../../components/Button.tsx';
import { Card } from '../../../components/Card.tsx';
import { Checkbox } from '../../../components/Checkbox.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { Select } from '../../../components/Select.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { useFormSubmit } from '../../../lib/forms.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useNotificationPreferences } from '../api/get-notification-preferences.ts';
import { useUpdateNotificationPreferences } from '../api/update-notification-preferences.ts';

type Values = {
  channels: NotificationPreferences['channels'];
  quiet: boolean;
  quiet_hours: { start: string; end: string };
};

/** The form's fields the server's details may name. */
const FIELDS = ['channels', 'quiet_hours'] as const;

/** The browser's own time zone: quiet hours are the person's nights, wherever the building is. */
const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

function valuesOf(preferences: NotificationPreferences): Values {
  return {
    channels: preferences.channels,
    quiet: preferences.quiet_hours !== null,
    quiet_hours: {
      start: preferences.quiet_hours?.start ?? '22:00',
      end: preferences.quiet_hours?.end ?? '07:00',
    },
  };
}

/**
 * "How you are told" (issue 33, docs/alerts.md "How each person is told"): for critical alerts and
 * the others, each channel at once, only if the alert is not opened (critical), or never; quiet
 * hours that hold back what can wait. Saved whole with one button, the server checking the rules.
 */
export function NotificationPreferencesCard() {
  const { t } = useLanguage();
  const preferences = useNotificationPreferences();
  return (
    <Card title={t('notify.title')}>
      <QueryBoundary query={preferences}>{(data) => <PreferencesForm saved={data} />}</QueryBoundary>
    </Card>
  );
}

function PreferencesForm({ saved }: { saved: NotificationPreferencesAnswer }) {
  const { t } = useLanguage();
  const toast = useToast();
  const update = useUpdateNotificationPreferences();
  const {
    register,
    handleSubmit,
    setError,
    control,
    reset,
    setFocus,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<Values>({ defaultValues: valuesOf(saved) });
  const quiet = useWatch({ control, name: 'quiet' });
  const quietZone = saved.quiet_hours?.time_zone ?? browserTimeZone();
  const { submit, failure } = useFormSubmit({ handleSubmit, setError }, FIELDS, async (values) => {
    const answer = await update.mutateAsync({
      channels: values.channels,
      quiet_hours: values.quiet ? { ...values.quiet_hours, time_zone: browserTimeZone() } : null,
    });
    reset(valuesOf(answer));
    toast.success(t('notify.saved'));
  });
  const minutes = saved.escalation_minutes;
  const timingLabel = (timing: ChannelTiming) =>
    t(`notify.timing.${timing}`, timing === 'unopened' ? { minutes } : undefined);
  const options = (severity: NotificationSeverity) =>
    (severity === 'critical' ? (['now', 'unopened', 'off'] as const) : (['now', 'off'] as const)).map(
      (value) => ({ value, label: timingLabel(value) }),
    );
  // The server's rule on a severity as a whole ("a first channel") lands on the severity itself.
  const severityError = (severity: NotificationSeverity) =>
    (errors.channels?.[severity] as { message?: string } | undefined)?.message;
  const errorIdPrefix = useId();
  const refused = NOTIFICATION_SEVERITIES.find((severity) => severityError(severity));
  // A refusal of a severity as a whole is a screen above the button on a phone: the person is taken
  // to its first channel, whose group says what is wrong (its description).
  useEffect(() => {
    if (refused) setFocus(`channels.${refused}.${NOTIFICATION_CHANNELS[0]}`);
  }, [refused, setFocus]);

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        {t('notify.intro', { minutes, twice: 2 * minutes })}
      </p>
      {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
      {NOTIFICATION_SEVERITIES.map((severity) => (
        <fieldset
          key={severity}
          className="space-y-2"
          aria-describedby={severityError(severity) ? `${errorIdPrefix}-${severity}` : undefined}
        >
          <legend className="text-sm font-medium">{t(`notify.severity.${severity}`)}</legend>
          <p className="text-xs text-slate-600 dark:text-slate-400">
            {t(`notify.severity_hint.${severity}`)}
          </p>
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
            {NOTIFICATION_CHANNELS.map((channel) => (
              <Select
                key={channel}
                label={t(`notify.channel.${channel}`)}
                options={options(severity)}
                error={errors.channels?.[severity]?.[channel]}
                {...register(`channels.${severity}.${channel}`)}
              />
            ))}
          </div>
          {severityError(severity) && (
            <p
              id={`${errorIdPrefix}-${severity}`}
              role="alert"
              className="text-sm text-red-700 dark:text-red-400"
            >
              {severityError(severity)}
            </p>
          )}
        </fieldset>
      ))}
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">{t('notify.quiet_title')}</legend>
        <Checkbox label={t('notify.quiet_on', { zone: quietZone })} {...register('quiet')} />
        <p className="text-xs text-slate-600 dark:text-slate-400">{t('notify.quiet_hint')}</p>
        {quiet && (
          <div className="grid grid-cols-2 gap-3 sm:max-w-sm">
            <TextField
              type="time"
              label={t('notify.quiet_start')}
              required
              error={errors.quiet_hours?.start}
              {...register('quiet_hours.start')}
            />
            <TextField
              type="time"
              label={t('notify.quiet_end')}
              required
              error={errors.quiet_hours?.end}
              {...register('quiet_hours.end')}
            />
          </div>
        )}
      </fieldset>
      <div className="flex justify-end">
        <Button type="submit" disabled={isSubmitting || !isDirty}>
          {t('notify.save')}
        </Button>
      </div>
    </form>
  );
}
