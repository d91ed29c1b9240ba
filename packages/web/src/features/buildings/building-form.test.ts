import { BuildingCreateSchema, CountrySchema, CURRENCIES, TimezoneSchema } from '@flowbox/shared';
import { describe, expect, it } from 'vitest';
import { regionOf } from './building-defaults.ts';
import { buildingFormValues, buildingPayload } from './building-form.ts';
import { countryOptions, currencyOptions, timezoneOptions } from './options.ts';

describe('the choices offered by the building form', () => {
  it('offers only countries the server accepts, named in the UI language', () => {
    const countries = countryOptions('fr');
    expect(countries.length).toBeGreaterThan(200);
    for (const { value } of countries) expect(CountrySchema.safeParse(value).success, value).toBe(true);
    expect(countries.find((c) => c.value === 'CH')?.label).toBe('Suisse');
    expect(countries.find((c) => c.value === 'EU')).toBeUndefined();
    expect(countryOptions('en').find((c) => c.value === 'DE')?.label).toBe('Germany');
  });

  it('offers every currency of the shared list, with its name', () => {
    const currencies = currencyOptions('en');
    expect(currencies.map((c) => c.value)).toEqual([...CURRENCIES]);
    expect(currencies[0]?.label).toBe('EUR — Euro');
  });

  it('offers time zones the server accepts, keeping the record’s own', () => {
    const zones = timezoneOptions(['Europe/Paris']);
    expect(zones.some((z) => z.value === 'Europe/Paris')).toBe(true);
    for (const { value } of zones) expect(TimezoneSchema.safeParse(value).success, value).toBe(true);
  });
});

describe('building form values', () => {
  const locale = { language: 'fr', locale: 'fr-FR', timezone: 'Europe/Paris' } as const;

  it('starts a new building in the manager’s region, the type left to choose', () => {
    const values = buildingFormValues(undefined, locale);
    expect(values).toMatchObject({
      country: 'FR',
      timezone: 'Europe/Paris',
      currency: 'EUR',
      volume_unit: 'm3',
      first_day_of_week: 'monday',
      weekend: ['saturday', 'sunday'],
    });
    expect(values.type).toBeUndefined();
    expect(regionOf('en-GB')).toBe('GB');
    expect(regionOf('fr')).toBeUndefined();
  });

  it('asks for every mandatory field with the spec’s messages (spec §5)', () => {
    const result = BuildingCreateSchema.safeParse({ ...buildingFormValues(undefined, locale), nbfloor: 2.5 });
    expect(result.success).toBe(false);
    const messages = Object.fromEntries(result.error!.issues.map((i) => [i.path.join('.'), i.message]));
    expect(messages).toMatchObject({
      name: 'validation.required',
      type: 'validation.select',
      address: 'validation.required',
      city: 'validation.required',
      zipCode: 'validation.required',
      nbfloor: 'validation.integer',
    });
    const zero = BuildingCreateSchema.safeParse({ ...buildingFormValues(undefined, locale), occupants: 0 });
    expect(zero.error!.issues.find((i) => i.path[0] === 'occupants')?.message).toBe('validation.min_one');
  });

  it('sends a week closed every day as no opening hours, and keeps given hours sorted', () => {
    const base = {
      ...buildingFormValues(undefined, locale),
      name: 'Tower A',
      type: 'office',
      address: '1 rue de la Paix',
      city: 'Lyon',
      zipCode: '69003',
    };
    const closed = BuildingCreateSchema.parse(base);
    expect(buildingPayload(closed).opening_hours).toBeNull();
    const open = BuildingCreateSchema.parse({
      ...base,
      opening_hours: {
        ...base.opening_hours,
        monday: [
          { start: '13:30', end: '18:00' },
          { start: '08:00', end: '12:00' },
        ],
      },
    });
    expect(buildingPayload(open).opening_hours?.monday).toEqual([
      { start: '08:00', end: '12:00' },
      { start: '13:30', end: '18:00' },
    ]);
  });
});
