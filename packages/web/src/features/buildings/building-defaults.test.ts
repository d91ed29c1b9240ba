import { BuildingCreateSchema } from '@flowbox/shared';
import { describe, expect, it } from 'vitest';
import { buildingDefaults, regionOf } from './building-defaults.ts';
import { buildingFormValues } from './building-form.ts';

/* Issue #15: a new building starts where its manager is, not in the United States at UTC in euros. */

describe('a new building’s regional defaults', () => {
  it('in French: France, euros, Paris time, cubic metres, weeks from Monday', () => {
    const french = { country: 'FR', currency: 'EUR', timezone: 'Europe/Paris', volume_unit: 'm3' };
    // A browser that says nothing of its place (UTC, as headless ones do), or an English browser.
    for (const locale of ['fr', 'fr-FR', 'en-US'])
      expect(buildingDefaults({ language: 'fr', locale, timezone: 'UTC' })).toEqual({
        ...french,
        first_day_of_week: 'monday',
      });
    // A French-speaking browser elsewhere: its own country, currency and time zone.
    expect(buildingDefaults({ language: 'fr', locale: 'fr-CH', timezone: 'Europe/Zurich' })).toMatchObject({
      country: 'CH',
      currency: 'CHF',
      timezone: 'Europe/Zurich',
      volume_unit: 'm3',
    });
    expect(buildingDefaults({ language: 'fr', locale: 'fr-BE', timezone: 'Etc/UTC' })).toMatchObject({
      country: 'BE',
      currency: 'EUR',
      timezone: 'Europe/Brussels',
    });
  });

  it('in English: the browser’s region and time zone where it knows them', () => {
    expect(buildingDefaults({ language: 'en', locale: 'en-GB', timezone: 'Europe/London' })).toEqual({
      country: 'GB',
      currency: 'GBP',
      timezone: 'Europe/London',
      volume_unit: 'm3',
      first_day_of_week: 'monday',
    });
    expect(buildingDefaults({ language: 'en', locale: 'en-US', timezone: 'America/Chicago' })).toEqual({
      country: 'US',
      currency: 'USD',
      timezone: 'America/Chicago',
      volume_unit: 'gallon',
      first_day_of_week: 'sunday',
    });
    // An English browser in Paris that names no country: Paris time, the country left to choose.
    expect(buildingDefaults({ language: 'en', locale: 'en', timezone: 'Europe/Paris' })).toEqual({
      country: '',
      currency: 'EUR',
      timezone: 'Europe/Paris',
      volume_unit: 'm3',
      first_day_of_week: 'monday',
    });
    // Nothing known at all: UTC, euros by the cubic metre, Monday.
    expect(buildingDefaults({ language: 'en', locale: 'en', timezone: 'UTC' })).toMatchObject({
      country: '',
      timezone: 'UTC',
      currency: 'EUR',
    });
    // A country of several time zones is not guessed from a browser at UTC.
    expect(buildingDefaults({ language: 'en', locale: 'en-US', timezone: 'UTC' }).timezone).toBe('UTC');
  });

  it('reads regions from locales, and none from a locale without one or a malformed one', () => {
    expect(regionOf('en-GB')).toBe('GB');
    expect(regionOf('fr')).toBeUndefined();
    expect(regionOf('not a locale')).toBeUndefined();
  });

  it('are values the shared building schema accepts', () => {
    for (const place of [
      { language: 'fr', locale: 'fr', timezone: 'UTC' },
      { language: 'en', locale: 'en-US', timezone: 'America/New_York' },
      { language: 'en', locale: 'en-IN', timezone: 'Asia/Kolkata' },
    ] as const) {
      const values = {
        ...buildingFormValues(undefined, place),
        name: 'Tower A',
        type: 'office',
        address: '1 rue de la Paix',
        city: 'Lyon',
        zipCode: '69003',
      };
      expect(BuildingCreateSchema.safeParse(values).success, place.locale).toBe(true);
    }
  });
});
