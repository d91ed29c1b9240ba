import { ALERT_CATEGORIES, type AlertCategory, type ZoneSummary } from '@flowbox/shared';
import { useId, useState } from 'react';
import { Card } from '../../../components/Card.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { INPUT_CLASS } from '../../../components/TextField.tsx';
import { useToast } from '../../../components/Toasts.tsx';
import { useHeldChoices } from '../../../lib/held-choices.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useUser } from '../../auth/index.ts';
import { useUpdateProfile } from '../../profile/index.ts';
import { useFollowedZones } from '../api/followed-zones.ts';
import { choiceOf, ownChoices, withChoice, type ZoneChoice, type ZoneSettings } from '../zone-settings.ts';

/** Beyond this many zones, a search box narrows the list. */
const SEARCH_FROM = 8;

type Save = (zoneId: string, category: AlertCategory, choice: ZoneChoice) => void;

/** One zone: a disclosure button, then a select per category (follow my setting, on, off). */
function ZoneRow({
  zone,
  settings,
  userDefault,
  disabled,
  save,
}: {
  zone: ZoneSummary;
  settings: ZoneSettings;
  userDefault: (category: AlertCategory) => boolean;
  disabled: boolean;
  save: Save;
}) {
  const { t } = useLanguage();
  const id = useId();
  const [open, setOpen] = useState(false);
  const own = ownChoices(settings, zone.id);
  return (
    <li className="py-3" data-testid="zone-email-settings" data-zone={zone.name}>
      <h3 className="text-sm">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={`${id}-categories`}
          onClick={() => setOpen(!open)}
          className="flex w-full items-start justify-between gap-3 rounded text-left focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600"
        >
          <span>
            <span className="block font-medium text-slate-900 dark:text-slate-100">{zone.name}</span>
            <span className="block text-xs text-slate-600 dark:text-slate-400">
              {zone.site_name} · {zone.building_name}
            </span>
          </span>
          <span className="flex shrink-0 items-center gap-2 text-xs text-slate-700 dark:text-slate-300">
            {own === 0 ? t('alert_settings.zone_follows') : t('alert_settings.zone_own', { count: own })}
            <span aria-hidden="true">{open ? '▴' : '▾'}</span>
          </span>
        </button>
      </h3>
      {open && (
        <fieldset id={`${id}-categories`} disabled={disabled} className="mt-3 grid gap-3 sm:grid-cols-2">
          <legend className="sr-only">{t('alert_settings.zone_legend', { name: zone.name })}</legend>
          {ALERT_CATEGORIES.map((category) => {
            const selectId = `${id}-${category}`;
            return (
              <div key={category}>
                <label
                  htmlFor={selectId}
                  className="mb-1 block text-xs font-medium text-slate-800 dark:text-slate-200"
                >
                  {t(`alerts.category.${category}`)}
                </label>
                <select
                  id={selectId}
                  name={`zone_${zone.id}_${category}`}
                  value={choiceOf(settings, zone.id, category)}
                  onChange={(event) => save(zone.id, category, event.target.value as ZoneChoice)}
                  className={INPUT_CLASS}
                >
                  <option value="inherit">
                    {t(userDefault(category) ? 'alert_settings.inherit_on' : 'alert_settings.inherit_off')}
                  </option>
                  <option value="on">{t('alert_settings.choice_on')}</option>
                  <option value="off">{t('alert_settings.choice_off')}</option>
                </select>
              </div>
            );
          })}
        </fieldset>
      )}
    </li>
  );
}

/**
 * Emails per zone (docs/alerts.md "Who is told"): for each zone the user is told about, each
 * category follows the user's own setting or is on or off for that zone (`alerts_instance_settings`).
 */
export function ZoneEmailSettings() {
  const { t } = useLanguage();
  const user = useUser();
  const toast = useToast();
  const update = useUpdateProfile();
  const held = useHeldChoices<ZoneSettings>();
  const settings = held.shown('zones', user.alerts_instance_settings);
  const zones = useFollowedZones(user.customer_id);
  const [search, setSearch] = useState('');
  const items = zones.data?.items ?? [];
  const needle = search.trim().toLocaleLowerCase();
  const shown = needle
    ? items.filter((z) =>
        [z.name, z.building_name, z.site_name].some((s) => s.toLocaleLowerCase().includes(needle)),
      )
    : items;
  const save: Save = (zoneId, category, choice) => {
    const next = withChoice(
      settings,
      items.map((z) => z.id),
      zoneId,
      category,
      choice,
    );
    held.hold('zones', next);
    update.mutate(
      { alerts_instance_settings: next },
      {
        onSuccess: () => toast.success(t('alert_settings.zone_saved')),
        onError: (error) => toast.error(error.message),
        onSettled: () => held.release('zones'),
      },
    );
  };
  return (
    <Card title={t('alert_settings.by_zone')}>
      <p className="mb-4 text-sm text-slate-700 dark:text-slate-300">{t('alert_settings.by_zone_text')}</p>
      {!user.alert_notification_enabled && (
        <p className="mb-4 text-sm font-medium text-amber-800 dark:text-amber-300">
          {t('alert_settings.zone_all_off')}
        </p>
      )}
      {zones.isPending ? (
        <Spinner />
      ) : zones.isError ? (
        <p role="alert">{zones.error.message}</p>
      ) : items.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{t('alert_settings.no_zone')}</p>
      ) : (
        <>
          {items.length > SEARCH_FROM && (
            <input
              type="search"
              aria-label={t('alerts.zone_search')}
              placeholder={t('alerts.zone_search')}
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              className={`${INPUT_CLASS} mb-2 max-w-sm`}
            />
          )}
          {needle && (
            <p role="status" className="mb-2 text-xs text-slate-600 dark:text-slate-400">
              {t('alerts.zone_search_count', { count: shown.length, hidden: items.length - shown.length })}
            </p>
          )}
          <ul
            aria-label={t('alert_settings.by_zone')}
            className="divide-y divide-slate-200 dark:divide-slate-800"
          >
            {shown.map((zone) => (
              <ZoneRow
                key={zone.id}
                zone={zone}
                settings={settings}
                userDefault={(category) => user.alerts_settings[category].email}
                disabled={update.isPending}
                save={save}
              />
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}
