import { divideExact, multiplyExact, parseExact, type Exact } from './decimal.ts';
import { type VolumeUnit } from '../domain/buildings.ts';

/**
 * Litres in one unit (spec §3 volume units), exact by definition: the US gallon is 231 cubic
 * inches = 3.785411784 L, the imperial gallon 4.54609 L. Consumption is stored in litres and
 * converted for display and billing (DESIGN.md §4).
 */
export const LITERS_PER_UNIT: Record<VolumeUnit, string> = {
  liter: '1',
  m3: '1000',
  gallon: '3.785411784',
  imperial_gallon: '4.54609',
};

const FACTORS = Object.fromEntries(
  Object.entries(LITERS_PER_UNIT).map(([unit, liters]) => [unit, parseExact(liters)]),
) as Record<VolumeUnit, Exact>;

export const toLiters = (volume: Exact, unit: VolumeUnit): Exact => multiplyExact(volume, FACTORS[unit]);
export const fromLiters = (liters: Exact, unit: VolumeUnit): Exact => divideExact(liters, FACTORS[unit]);

/** A volume in another unit, exactly (no rounding: round only what is shown). */
export function convertVolume(volume: Exact, from: VolumeUnit, to: VolumeUnit): Exact {
  return from === to ? volume : fromLiters(toLiters(volume, from), to);
}
