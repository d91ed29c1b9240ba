import {
  ACK_REFUSAL_REASONS,
  ALERT_CATEGORIES,
  EVENT_ACTIONS,
  EVENT_OBJECTS,
  FLOWBOX_COMMANDS,
  PERMISSIONS,
  REBOOT_REASONS,
  TRIGGERS,
  type ActivityEvent,
  type EventAction,
  type EventObject,
} from '@flowbox/shared';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { fieldLabel } from './field-label.ts';
import { firmwareDetail } from './firmware-detail.ts';
import { I18nLite } from '../../lib/i18n/lite.ts';
import { en as coreEn } from '../../lib/i18n/en.ts';
import { featuresEn } from '../../lib/i18n/features.ts';
import { featuresFr } from '../../lib/i18n/features-fr.ts';
import { fr as coreFr } from '../../lib/i18n/fr.ts';

const en = { ...coreEn, ...featuresEn };
const fr = { ...coreFr, ...featuresFr };

/*
 * The activity log names every action and object the server can record (the shared enums type
 * what it writes), in its filter and in its lines, in English and in French (spec §1, §3 facets).
 */

type Dictionary = Record<string, string | undefined>;
const both = (key: string) => {
  expect((en as Dictionary)[key], `${key} (en)`).toBeTruthy();
  expect((fr as Dictionary)[key], `${key} (fr)`).toBeTruthy();
};

describe('activity log texts in English and French', () => {
  it.each(EVENT_ACTIONS)('writes the %s line and names it in the action filter', (action) => {
    both(`event.action.${action}`);
    both(`event.action_name.${action}`);
  });

  it.each(EVENT_OBJECTS)('names the %s object in lines and in the object filter', (object) => {
    both(`event.object.${object}`);
    both(`event.noun.${object}`);
    both(`event.object_name.${object}`);
  });

  it.each(ALERT_CATEGORIES)('names the %s alert category in alert lines', (category) => {
    both(`event.alert_category.${category}`);
  });

  it('names what a flowbox or automatic-closing line tells besides its action', () => {
    const details = [
      ...REBOOT_REASONS.filter((reason) => reason !== 'command'),
      ...FLOWBOX_COMMANDS,
      ...ACK_REFUSAL_REASONS,
      ...['customer', 'site', 'building', 'zone'].map((kind) => `${kind}_deleted`),
      ...TRIGGERS,
      // Why a command was withdrawn (the only withdrawal today: leaving automatic closing).
      'automatic_closing_exited',
    ];
    for (const detail of details) both(`event.field.${detail}`);
  });

  it('tells the water temperature alert from the zone’s hot-or-cold water field', () => {
    expect(en['event.alert_category.water_temperature']).toBe('water temperature');
    expect(fr['event.alert_category.water_temperature']).toBe('température de l’eau');
    expect(en['event.field.water_temperature']).toBe('water (hot or cold)');
    expect(fr['event.field.water_temperature']).toBe('eau (chaude ou froide)');
  });
});

/* Issue 30: a permissions change was logged as raw keys ("alerts.manage, …"). */
describe('a permissions change in the activity log', () => {
  it('names each permission as the permissions screen does, in English and French', () => {
    for (const [texts, language] of [
      [en, 'en'],
      [fr, 'fr'],
    ] as const) {
      const t = ((key: string) => (texts as Dictionary)[key] ?? key) as unknown as TFunction;
      for (const permission of PERMISSIONS) {
        const label = fieldLabel(permission, t);
        expect(label, `${permission} (${language})`).toBe((texts as Dictionary)[`permission.${permission}`]);
        expect(label).not.toContain('.');
      }
    }
  });
});

/*
 * Issue 30: a rollout flooded the log with five lines per device. It is logged by its own life,
 * counted in name=value fields (docs/firmware.md "Activity log"), which the log words, EN and FR.
 */
describe('a firmware rollout in the activity log', () => {
  const lite = new I18nLite();
  void lite.init({
    resources: {
      en: { translation: en as Record<string, string> },
      fr: { translation: fr as Record<string, string> },
    },
    lng: 'en',
    fallbackLng: 'en',
  });
  const line = (action: EventAction, object: EventObject, fields: string[]): ActivityEvent => ({
    id: '00000000-0000-4000-8000-000000000001',
    created_at: '2026-12-06T10:00:00.000Z',
    action_name: action,
    object_name: object,
    object_id: null,
    object_label: 'Lyon',
    user_id: null,
    user_name: null,
    origin: 'system',
    customer_id: null,
    site_id: null,
    building_id: null,
    zone_id: null,
    changed_fields: fields,
  });
  const say = (
    language: 'en' | 'fr',
    action: EventAction,
    fields: string[],
    object: EventObject = 'firmware_rollout',
  ) =>
    firmwareDetail(line(action, object, fields), lite.getFixedT(language) as unknown as TFunction, language);

  it('says what it sets out to do, each wave, its halt, cancel and end, in numbers and words', () => {
    const created = ['5.0.0', 'flowboxes=1000', 'waves=4', 'left_out=3'];
    expect(say('en', 'rollout_created', created)).toBe(
      'To version 5.0.0: 1,000 flowboxes in 4 waves; 3 flowboxes left out (already on the version, updating or waiting in another rollout)',
    );
    expect(say('fr', 'rollout_created', created)).toBe(
      'Vers la version 5.0.0 : 1\u202f000 flowbox en 4 vagues ; 3 flowbox laissés de côté (déjà sur la version, en cours de mise à jour ou en attente dans un autre déploiement)',
    );
    expect(say('en', 'rollout_created', ['5.0.0', 'flowboxes=1', 'waves=1', 'left_out=0'])).toBe(
      'To version 5.0.0: 1 flowbox in 1 wave',
    );
    const wave = ['wave=2', 'waves=4', 'flowboxes=200'];
    expect(say('en', 'rollout_wave_started', wave)).toBe('Wave 2 of 4: 200 flowboxes');
    expect(say('fr', 'rollout_wave_started', wave)).toBe('Vague 2 sur 4 : 200 flowbox');
    const halted = ['failure_threshold', 'succeeded=20', 'failed=3'];
    expect(say('en', 'rollout_halted', halted)).toBe('too many failures; so far 20 updated, 3 failed');
    expect(say('fr', 'rollout_halted', halted)).toBe('trop d’échecs ; jusqu’ici 20 mis à jour, 3 en échec');
    const cancelled = ['cancelled=750', 'succeeded=250', 'failed=0'];
    expect(say('en', 'rollout_cancelled', cancelled)).toBe(
      '750 waiting flowboxes will not be updated; by then 250 updated, 0 failed',
    );
    expect(say('fr', 'rollout_cancelled', cancelled)).toBe(
      '750 flowbox en attente ne seront pas mis à jour ; jusque-là 250 mis à jour, 0 en échec',
    );
    const completed = ['succeeded=990', 'failed=1', 'skipped=9'];
    expect(say('en', 'rollout_completed', completed)).toBe('990 updated, 1 failed, 9 skipped at their turn');
    expect(say('fr', 'rollout_completed', completed)).toBe(
      '990 mis à jour, 1 en échec, 9 ignorés à leur tour',
    );
  });

  it('says how a flowbox’s update ended and why, and reads lines written before the counts', () => {
    const failed = ['failed', '5.0.0', 'install_failed'];
    expect(say('en', 'firmware_update', failed, 'flowbox')).toBe('To version 5.0.0: failed (install failed)');
    expect(say('fr', 'firmware_update', failed, 'flowbox')).toBe(
      'Vers la version 5.0.0 : échec (installation échouée)',
    );
    expect(say('en', 'rollout_created', ['5.0.0'])).toBe('To version 5.0.0');
    expect(say('fr', 'rollout_halted', ['image_withdrawn'])).toBe('firmware retiré');
    expect(say('en', 'rollout_paused', [])).toBeNull();
    expect(say('en', 'updated', ['name'], 'site')).toBeNull();
  });
});
