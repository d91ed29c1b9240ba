import { z } from 'zod';

export const latitudeField = z
  .number({ error: 'validation.latitude' })
  .min(-90, 'validation.latitude')
  .max(90, 'validation.latitude');
export const longitudeField = z
  .number({ error: 'validation.longitude' })
  .min(-180, 'validation.longitude')
  .max(180, 'validation.longitude');

/**
 * Optional coordinates of a place (WGS84 degrees), for objects whose schema has `latitude` and
 * `longitude`: null clears them, both or neither, sent together. Use in an object's `superRefine`.
 */
export const coordinateFields = {
  latitude: latitudeField.nullable().optional(),
  longitude: longitudeField.nullable().optional(),
};

export function checkCoordinatePair(
  value: { latitude?: unknown; longitude?: unknown },
  ctx: z.RefinementCtx,
): void {
  const lat = value.latitude;
  const lng = value.longitude;
  if (lat === undefined && lng === undefined) return;
  const placed = (v: unknown) => v !== undefined && v !== null;
  if ((lat === undefined) !== (lng === undefined) || placed(lat) !== placed(lng))
    ctx.addIssue({
      code: 'custom',
      message: 'validation.coordinates_pair',
      path: [placed(lat) ? 'longitude' : 'latitude'],
    });
}
