import {
  ROLES,
  ALERT_CATEGORIES,
  LANGUAGES,
  type AlertCategory,
  type AlertCategorySetting,
  type Language,
  type Role,
} from '@flowbox/shared';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Card } from '../../../components/Card.tsx';
import { CardList } from '../../../components/CardList.tsx';
import { Checkbox } from '../../../components/Checkbox.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { TableScroll } from '../../../components/TableScroll.tsx';
import { useHeldChoices } from '../../../lib/held-choices.ts';
import { useLanguage, type TranslationKey } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { CUSTOMER_OR_SITE, END_USER, hasRole, useUser } from '../../auth/index.ts';
import { useUpdateProfile } from '../../profile/index.ts';
import { alertSettingsQueryOptions } from '../api/list-alert-settings.ts';
import { useUpdateAlertSetting } from '../api/update-alert-setting.ts';
import { DevicePushCard } from './DevicePushCard.tsx';
import { NotificationPreferencesCard } from './NotificationPreferencesCard.tsx';
import { ZoneEmailSettings } from './ZoneEmailSettings.tsx';

/** The user's language, as saved to its profile (issue 30); the screens switch as soon as it is saved. */
function MyLanguage() {
  const { t } = useLanguage();
  const user = useUser();
  const toast = useToast();
  const update = useUpdateProfile();
  const held = useHeldChoices<Language>();
  const current = held.shown('language', user.language);
  return (
    <Card title={t('settings.language_title')}>
      <fieldset disabled={update.isPending}>
        <legend className="mb-2 text-sm text-slate-700 dark:text-slate-300">
          {t('settings.language_hint')}
        </legend>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          {LANGUAGES.map((code) => (
            <label key={code} lang={code} className="inline-flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="language"
                value={code}
                checked={current === code}
                onChange={() => {
                  if (code === user.language) return;
                  held.hold('language', code);
                  update.mutate(
                    { language: code },
                    {
                      onSuccess: () => toast.success(t('settings.language_saved', { lng: code })),
                      onError: (error) => toast.error(error.message),
                      onSettled: () => held.release('language'),
                    },
                  );
                }}
                className="h-4 w-4 accent-sky-700 focus-visible:outline-2 focus-visible:outline-sky-600"
              />
              {code === 'fr' ? 'Français' : 'English'}
            </label>
          ))}
        </div>
      </fieldset>
    </Card>
  );
}

/** docs/push.md: critical alerts are pushed to the people their emails reach, not to providers nor plumbers. */
const pushedTo = (user: ReturnType<typeof useUser>) =>
  hasRole(user, CUSTOMER_OR_SITE) || hasRole(user, END_USER);

/**
 * What the server sends alerts by (docs/alerts.md "Who is told"): the screen, email, and for the
 * people emails reach, notifications on the devices where they turn them on; nothing else.
 */
function MyChannels() {
  const { t } = useLanguage();
  const user = useUser();
  // Everyone reads its alerts on the notifications; an end user's also lead its zone's page.
  const endUser = hasRole(user, END_USER);
  const pushed = pushedTo(user);
  return (
    <Card title={t('settings.channels_title')}>
      <p className="mb-3 text-sm text-slate-700 dark:text-slate-300">{t('settings.channels_intro')}</p>
      <dl className="space-y-3 text-sm">
        <div>
          <dt className="font-medium">{t('settings.channel_screen')}</dt>
          <dd className="text-slate-700 dark:text-slate-300">
            {t(endUser ? 'settings.channel_screen_end_user' : 'settings.channel_screen_detail')}{' '}
            <Link
              to={paths.notifications.getHref()}
              className="font-medium text-sky-700 hover:underline focus-visible:outline-2 focus-visible:outline-sky-600 dark:text-sky-400"
            >
              {t('settings.channel_screen_link')}
            </Link>
          </dd>
        </div>
        <div>
          <dt className="font-medium">{t('settings.channel_email')}</dt>
          <dd className="text-slate-700 dark:text-slate-300">
            {t(
              user.role === ROLES.flovea_manager
                ? 'settings.channel_email_provider'
                : user.role === ROLES.plumber
                  ? 'settings.channel_email_plumber'
                  : endUser
                    ? 'settings.channel_email_end_user'
                    : 'settings.channel_email_detail',
            )}
          </dd>
        </div>
        {pushed && (
          <div>
            <dt className="font-medium">{t('settings.channel_push')}</dt>
            <dd className="text-slate-700 dark:text-slate-300">{t('settings.channel_push_detail')}</dd>
          </div>
        )}
      </dl>
      <p className="mt-3 text-xs text-slate-600 dark:text-slate-400">
        {t(pushed ? 'settings.channels_none' : 'settings.channels_none_push')}
      </p>
    </Card>
  );
}

/**
 * spec §6: the email notification setting, for customer and site managers, and for end users, who
 * are emailed their zones' alerts (docs/permissions.md); managers set zones apart further down.
 */
function MyAlertEmails({ perZone }: { perZone: boolean }) {
  const { t } = useLanguage();
  const user = useUser();
  const toast = useToast();
  const update = useUpdateProfile();
  const held = useHeldChoices<boolean>();
  const save = (key: string, value: boolean, input: Parameters<typeof update.mutate>[0]) => {
    held.hold(key, value);
    update.mutate(input, {
      onSuccess: () => toast.success(t('alert_settings.saved')),
      onError: (error) => toast.error(error.message),
      onSettled: () => held.release(key),
    });
  };
  const enabled = held.shown('enabled', user.alert_notification_enabled);
  return (
    <Card title={t('alert_settings.by_category')}>
      <Checkbox
        name="alert_notification_enabled"
        label={t('alert_settings.enabled')}
        checked={enabled}
        disabled={update.isPending}
        onChange={(event) =>
          save('enabled', event.target.checked, { alert_notification_enabled: event.target.checked })
        }
      />
      <p className="mt-1 mb-4 ml-6 text-xs text-slate-600 dark:text-slate-400">
        {t('alert_settings.enabled_hint')}
      </p>
      <fieldset disabled={!enabled || update.isPending} className="space-y-2">
        <legend className="mb-2 text-sm font-medium">{t('alert_settings.email')}</legend>
        {ALERT_CATEGORIES.map((category) => (
          <Checkbox
            key={category}
            name={`email_${category}`}
            label={t(`alerts.category.${category}`)}
            checked={held.shown(category, user.alerts_settings[category].email)}
            onChange={(event) =>
              save(category, event.target.checked, {
                alerts_settings: { [category]: { email: event.target.checked } },
              })
            }
          />
        ))}
      </fieldset>
      {perZone && (
        <p className="mt-4 text-xs text-slate-600 dark:text-slate-400">{t('alert_settings.zone_hint')}</p>
      )}
    </Card>
  );
}

type Flag = 'enabled' | 'premium_only' | 'email';
const FLAGS: { flag: Flag; label: TranslationKey }[] = [
  { flag: 'enabled', label: 'alert_settings.cat_enabled' },
  { flag: 'premium_only', label: 'alert_settings.premium_only' },
  { flag: 'email', label: 'alert_settings.cat_email' },
];

/** spec §3 alert settings, for the whole service: provider managers. */
function ServiceCategories({ settings }: { settings: AlertCategorySetting[] }) {
  const { t } = useLanguage();
  const toast = useToast();
  const update = useUpdateAlertSetting();
  const held = useHeldChoices<boolean>();
  const save = (category: AlertCategory, flag: Flag, value: boolean) => {
    const key = `${category}.${flag}`;
    held.hold(key, value);
    update.mutate(
      { category, input: { [flag]: value } },
      {
        onSuccess: () => toast.success(t('alert_settings.category_saved')),
        onError: (error) => toast.error(error.message),
        onSettled: () => held.release(key),
      },
    );
  };
  const box = (setting: AlertCategorySetting, flag: Flag, label: TranslationKey) => (
    <input
      type="checkbox"
      aria-label={`${t(label)}: ${t(`alerts.category.${setting.category}`)}`}
      checked={held.shown(`${setting.category}.${flag}`, setting[flag])}
      disabled={update.isPending}
      onChange={(event) => save(setting.category, flag, event.target.checked)}
      className="h-4 w-4 accent-sky-700 focus-visible:outline-2 focus-visible:outline-sky-600"
    />
  );
  return (
    <Card title={t('alert_settings.service_title')}>
      <p className="mb-4 text-sm text-slate-700 dark:text-slate-300">
        {t('alert_settings.service_description')}
      </p>
      <TableScroll label={t('alert_settings.service_title')} className="hidden md:block">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{t('alert_settings.service_title')}</caption>
          <thead>
            <tr className="border-b border-slate-200 dark:border-slate-700">
              <th scope="col" className="py-2 pr-3">
                {t('alert_settings.category')}
              </th>
              {FLAGS.map(({ flag, label }) => (
                <th key={flag} scope="col" className="px-3 py-2">
                  {t(label)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {settings.map((setting) => (
              <tr key={setting.category} className="border-b border-slate-100 dark:border-slate-800">
                <th scope="row" className="py-2 pr-3 font-medium">
                  {t(`alerts.category.${setting.category}`)}
                  <span className="block text-xs font-normal text-slate-600 dark:text-slate-400">
                    {setting.subject.en} · {setting.subject.fr}
                  </span>
                </th>
                {FLAGS.map(({ flag, label }) => (
                  <td key={flag} className="px-3 py-2">
                    {box(setting, flag, label)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <CardList
        label={t('alert_settings.service_title')}
        rows={settings}
        rowKey={(setting) => setting.category}
        title={(setting) => t(`alerts.category.${setting.category}`)}
        summary={(setting) => (
          <span className="text-xs">
            {setting.subject.en} · {setting.subject.fr}
          </span>
        )}
        fields={(setting) =>
          FLAGS.map(({ flag, label }) => ({ key: flag, label: t(label), value: box(setting, flag, label) }))
        }
      />
    </Card>
  );
}

const DESCRIPTION: Partial<Record<Role, TranslationKey>> = {
  [ROLES.flovea_manager]: 'alert_settings.description_provider',
  [ROLES.end_user]: 'alert_settings.description_end_user',
  [ROLES.plumber]: 'alert_settings.description_plumber',
};

/**
 * `/settings`, every role's own (issue 18): the language and the channels for everyone; one's own
 * alert emails for those emailed alerts (customer and site managers, end users), per zone for the
 * managers; the service's categories for provider managers.
 */
export function AlertSettingsPage() {
  const { t } = useLanguage();
  const user = useUser();
  const provider = user.role === ROLES.flovea_manager;
  const manager = hasRole(user, CUSTOMER_OR_SITE);
  const settings = useQuery({ ...alertSettingsQueryOptions(), enabled: provider });
  return (
    <>
      <PageHeader
        title={t('alert_settings.title')}
        description={t(DESCRIPTION[user.role] ?? 'alert_settings.description')}
      />
      <div className="space-y-6">
        <MyLanguage />
        <MyChannels />
        {pushedTo(user) && <DevicePushCard />}
        {pushedTo(user) && <NotificationPreferencesCard />}
        {(manager || hasRole(user, END_USER)) && <MyAlertEmails perZone={manager} />}
        {manager && <ZoneEmailSettings />}
        {provider && (
          <QueryBoundary query={settings}>
            {(data) => <ServiceCategories settings={data.items} />}
          </QueryBoundary>
        )}
      </div>
    </>
  );
}
