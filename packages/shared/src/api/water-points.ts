import { z } from 'zod';
import { decimalString, optionalText, requiredText } from '../validation.ts';

/** spec §3 water point types. */
export const WATER_POINT_TYPES = [
  'toilet',
  'sink',
  'shower',
  'pool',
  'fridge',
  'bathtube',
  'water-heater',
  'dishwasher',
  'washer',
  'watering',
] as const;
export type WaterPointType = (typeof WATER_POINT_TYPES)[number];

/** Nominal flow in litres per minute, an exact decimal greater than 0 ("6", "0.75"). */
export const NominalFlowSchema = decimalString.refine((v) => Number(v) > 0, 'validation.positive');

/**
 * A water point of a zone: what a plumber needs to find and size it. Mandatory: label and type.
 */
export const WaterPointCreateSchema = z.object({
  label: requiredText(),
  type: z.enum(WATER_POINT_TYPES, 'validation.select'),
  location: optionalText(200).nullable().optional(),
  nominal_flow_lpm: NominalFlowSchema.nullable().optional(),
});
export type WaterPointCreateInput = z.input<typeof WaterPointCreateSchema>;
export const WaterPointUpdateSchema = WaterPointCreateSchema.partial();
export type WaterPointUpdateInput = z.input<typeof WaterPointUpdateSchema>;

export const WaterPointSchema = z.object({
  id: z.uuid(),
  zone_id: z.uuid(),
  label: z.string(),
  type: z.enum(WATER_POINT_TYPES),
  /** Free text: floor, room, cupboard ("2nd floor, room 204, under the sink"). */
  location: z.string().nullable(),
  nominal_flow_lpm: z.string().nullable(),
  created_at: z.string(),
});
export type WaterPoint = z.infer<typeof WaterPointSchema>;
