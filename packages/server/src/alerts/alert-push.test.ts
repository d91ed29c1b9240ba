import { ALERT_CATEGORIES, PUSHED_ALERT_CATEGORIES, ANSWERABLE_ALERT_CATEGORIES } from '@flowbox/shared';
import { describe, expect, it } from 'vitest';
import { alertPush } from './alert-push.ts';
import type { AlertRow, AlertZone } from './alerts.repo.ts';

const zone = {
  zoneId: 'z',
  zoneName: 'Kitchen',
  buildingName: 'Main building',
  timezone: 'Europe/Paris',
} as unknown as AlertZone;
const alertOf = (category: AlertRow['category']) =>
  ({ id: 'a', category, openedAt: new Date('2027-03-14T01:10:00Z'), details: {} }) as unknown as AlertRow;

describe("an alert's push actions (issue 33)", () => {
  it('offer "It\'s me" only where the alert asks "Was this you?", and never to close water already closed', () => {
    for (const category of PUSHED_ALERT_CATEGORIES) {
      const actions = alertPush('en', { alert: alertOf(category), zone, link: 'x' }).actions.map(
        (a) => a.action,
      );
      expect(actions.includes('its_me'), category).toBe(ANSWERABLE_ALERT_CATEGORIES.includes(category));
      expect(actions.includes('close_water'), category).toBe(
        category !== 'abnormal_water_consumption_with_ac',
      );
      expect(actions.at(-1), category).toBe('snooze_1h');
    }
    expect(ALERT_CATEGORIES).toContain('flowbox_dysfunction');
    expect(
      alertPush('fr', { alert: alertOf('flowbox_dysfunction'), zone, link: 'x' }).actions.map((a) => a.title),
    ).toEqual(["Fermer l'eau", 'Reporter 1 h']);
  });
});
