import {
  ACK_REFUSAL_REASONS,
  ALERT_CATEGORIES,
  EVENT_ACTIONS,
  EVENT_OBJECTS,
  FLOWBOX_COMMANDS,
  PERMISSIONS,
  REBOOT_REASONS,
  TRIGGERS,
} from '@flowbox/shared';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { fieldLabel } from './field-label.ts';
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
