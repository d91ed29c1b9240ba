import {
  DEFAULT_WEEKEND,
  type Building,
  type BuildingCreateInput,
  type BuildingCreateSchema,
} from '@flowbox/shared';
import type { DefaultValues } from 'react-hook-form';
import type { z } from 'zod';
import { isClosedWeek, openingHoursValueOf } from '../../components/forms/OpeningHoursField.tsx';
import { buildingDefaults, type ManagerPlace } from './building-defaults.ts';

/** What the building form hands over once the shared schema has checked it. */
export type BuildingValues = z.output<typeof BuildingCreateSchema>;

/** The browser's own zone: where the manager sits is the likeliest place of a new building. */
export function browserTimezone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * Starting values: the record's, or for a new building the usual choices of the manager's language
 * and place (building-defaults.ts; the type stays unchosen, so the schema asks for it: spec §5
 * "Please select an option").
 */
export function buildingFormValues(
  building: Building | undefined,
  place: ManagerPlace,
): DefaultValues<BuildingCreateInput> {
  if (building) {
    return {
      name: building.name,
      type: building.type,
      address: building.address,
      city: building.city,
      zipCode: building.zipCode,
      country: building.country,
      nbfloor: building.nbfloor,
      occupants: building.occupants,
      nbequipment: building.nbequipment,
      opening_hours: openingHoursValueOf(building.opening_hours),
      timezone: building.timezone,
      volume_unit: building.volume_unit,
      currency: building.currency,
      first_day_of_week: building.first_day_of_week,
      weekend: [...building.weekend],
      price_per_unit: building.price_per_unit,
      latitude: building.latitude,
      longitude: building.longitude,
    };
  }
  const defaults = buildingDefaults(place);
  return {
    name: '',
    address: '',
    city: '',
    zipCode: '',
    country: defaults.country,
    nbfloor: null,
    occupants: null,
    nbequipment: null,
    opening_hours: openingHoursValueOf(null),
    timezone: defaults.timezone,
    volume_unit: defaults.volume_unit,
    currency: defaults.currency,
    first_day_of_week: defaults.first_day_of_week,
    weekend: [...DEFAULT_WEEKEND],
    price_per_unit: null,
    latitude: null,
    longitude: null,
  };
}

/** A week closed every day means "not given" (null), as the API reads it. */
export function buildingPayload(values: BuildingValues): BuildingValues {
  const hours = openingHoursValueOf(values.opening_hours);
  return { ...values, opening_hours: isClosedWeek(hours) ? null : values.opening_hours };
}
