import { ALERT_CATEGORIES, ALERT_STATES, ALERT_TRANSITIONS, EVENT_ACTIONS } from '@flowbox/shared';
import { describe, expect, it } from 'vitest';
import { en as coreEn } from '../../lib/i18n/en.ts';
import { featuresEn } from '../../lib/i18n/features.ts';
import { featuresFr } from '../../lib/i18n/features-fr.ts';
import { fr as coreFr } from '../../lib/i18n/fr.ts';

const en = { ...coreEn, ...featuresEn };
const fr = { ...coreFr, ...featuresFr };

/*
 * Every text of the alert screens and of alert lines in the activity log exists in English and in
 * French (spec §1), for the eight categories, each state and each transition.
 */

type Key = keyof typeof en;
const both = (key: string) => {
  expect(en[key as Key], `${key} (en)`).toBeTruthy();
  expect(fr[key as Key], `${key} (fr)`).toBeTruthy();
};
/** Words the two languages write alike. */
const SAME = new Set([
  'Maintenance',
  'maintenance',
  'Zone',
  'normal',
  '{{zone}} · {{building}}',
  'Flowbox {{serial}}',
]);
const translated = (key: string) => {
  both(key);
  const [english, french] = [en[key as Key], fr[key as Key]];
  if (!SAME.has(english)) expect(french, key).not.toBe(english);
};

const ALERT_ACTIONS = EVENT_ACTIONS.filter(
  (action) => action.startsWith('alert_') || action.endsWith('_status_changed'),
);

describe('alert texts in English and French', () => {
  it.each(ALERT_CATEGORIES)('names the %s category on the screens and in the activity log', (category) => {
    translated(`alerts.category.${category}`);
    both(`event.alert_category.${category}`);
  });

  it.each([...ALERT_STATES, 'active'])('names the %s state', (state) => translated(`alerts.state.${state}`));

  it.each(ALERT_TRANSITIONS)('offers the %s transition and says when it is done', (transition) => {
    translated(`alerts.${transition}`);
    translated(`alerts.${transition}d_toast`);
  });

  it.each(ALERT_ACTIONS)('writes the %s line of the activity log and names it in the filter', (action) => {
    translated(`event.action.${action}`);
    translated(`event.action_name.${action}`);
  });

  it('names the alert objects and the automatic resolution in the activity log', () => {
    for (const object of ['alert', 'alert_category']) {
      translated(`event.object.${object}`);
      translated(`event.noun.${object}`);
      translated(`event.object_name.${object}`);
    }
    translated('event.field.automatic');
  });

  it('has every alert screen text in French, none left in English', () => {
    const keys = (Object.keys(en) as Key[]).filter((key) => /^(alerts|alert_settings)\./.test(key));
    expect(keys.length).toBeGreaterThan(60);
    for (const key of keys) translated(key);
  });
});
