import type { PushSubscriptionInfo } from '@flowbox/shared';
import { Alert } from '../../../components/Alert.tsx';
import { Button } from '../../../components/Button.tsx';
import { Card } from '../../../components/Card.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { PushDeniedError } from '../../../lib/web-push.ts';
import { useDisablePush } from '../api/disable-push.ts';
import { useEnablePush } from '../api/enable-push.ts';
import { usePushSubscriptions } from '../api/list-push-subscriptions.ts';
import { useRemovePushSubscription } from '../api/remove-push-subscription.ts';
import { useThisBrowserPush, type ThisBrowserPush } from '../api/this-browser-push.ts';

type Shown = 'checking' | 'on' | 'off' | 'blocked' | 'unsupported' | 'ios';

function shownState(browser: ThisBrowserPush | undefined, known: PushSubscriptionInfo[] | undefined): Shown {
  if (!browser || !known) return 'checking';
  if (browser.support === 'ios_home_screen') return 'ios';
  if (browser.support !== 'supported') return browser.support;
  // On only when the server knows this browser's subscription: one it forgot is turned on again.
  return browser.endpoint && known.some((s) => s.endpoint === browser.endpoint) ? 'on' : 'off';
}

const STATE_TEXT = {
  checking: 'push.checking',
  on: 'push.state_on',
  off: 'push.state_off',
  blocked: 'push.state_blocked',
  unsupported: 'push.state_unsupported',
  ios: 'push.state_ios',
} as const;

/**
 * "Notifications on this device" (issue 33, docs/push.md "The web app"): critical alerts pushed to
 * this browser, turned on (the browser asks for permission) and off here, with what stands in the
 * way when they cannot be (blocked, unsupported, an iPhone outside the Home Screen), and the user's
 * other browsers, each removable.
 */
export function DevicePushCard() {
  const { t, language } = useLanguage();
  const toast = useToast();
  const browser = useThisBrowserPush();
  const subscriptions = usePushSubscriptions();
  const enable = useEnablePush();
  const disable = useDisablePush();
  const remove = useRemovePushSubscription();
  const state = shownState(browser.data, subscriptions.data?.items);
  const others = (subscriptions.data?.items ?? []).filter((s) => s.endpoint !== browser.data?.endpoint);
  const failure = enable.error ?? disable.error ?? remove.error ?? subscriptions.error;

  const turnOn = () => {
    // Asked here, in the click itself: Safari shows the question only within a tap.
    enable.mutate(Notification.requestPermission(), {
      onSuccess: () => toast.success(t('push.enabled_toast')),
    });
  };
  const turnOff = () =>
    disable.mutate(undefined, { onSuccess: () => toast.success(t('push.disabled_toast')) });

  return (
    <Card title={t('push.title')} headingId="device-push-title">
      <div className="space-y-4" data-testid="device-push" data-state={state}>
        <p className="text-sm text-slate-700 dark:text-slate-300">{t('push.intro')}</p>
        <p role="status" className="text-sm font-medium" data-testid="device-push-state">
          {t(STATE_TEXT[state])}
        </p>
        {/* One button whose words change: keyboard focus stays on it once it has acted. */}
        {(state === 'on' || state === 'off') && (
          <Button
            variant={state === 'on' ? 'secondary' : 'primary'}
            onClick={state === 'on' ? turnOff : turnOn}
            loading={enable.isPending || disable.isPending}
          >
            {t(state === 'on' ? 'push.disable' : 'push.enable')}
          </Button>
        )}
        {failure && (
          <Alert>
            {failure instanceof PushDeniedError
              ? t('push.denied')
              : failure instanceof ApiRequestError
                ? failure.message
                : t('errors.api_error')}
          </Alert>
        )}
        <div>
          <h3 className="text-sm font-semibold">{t('push.others')}</h3>
          {others.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{t('push.others_none')}</p>
          ) : (
            <ul className="mt-2 divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
              {others.map((other) => (
                <li
                  key={other.id}
                  className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm"
                  data-testid="push-browser"
                >
                  <span>
                    <span className="font-medium">{other.label}</span>
                    <span className="block text-xs text-slate-600 dark:text-slate-400">
                      {t('push.added', { date: formatDateTime(other.created_at, language) })}
                      {other.last_success_at &&
                        `, ${t('push.last_success', { date: formatDateTime(other.last_success_at, language) })}`}
                    </span>
                  </span>
                  <Button
                    variant="secondary"
                    aria-label={t('push.remove_label', { label: other.label })}
                    loading={remove.isPending && remove.variables === other.endpoint}
                    onClick={() =>
                      remove.mutate(other.endpoint, {
                        onSuccess: () => toast.success(t('push.removed_toast', { label: other.label })),
                      })
                    }
                  >
                    {t('push.remove')}
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </Card>
  );
}
