import { z } from 'zod';

/** Path ids of the customer > site > building > floor/zone > water point hierarchy. */
const uuidParam = z.uuid('validation.invalid');

export const customerParams = z.object({ customerId: uuidParam });
export const siteParams = customerParams.extend({ siteId: uuidParam });
export const buildingParams = siteParams.extend({ buildingId: uuidParam });
export const floorParams = buildingParams.extend({ floorId: uuidParam });
export const zoneParams = buildingParams.extend({ zoneId: uuidParam });
export const waterPointParams = zoneParams.extend({ waterPointId: uuidParam });

export type SitePath = z.output<typeof siteParams>;
export type BuildingPath = z.output<typeof buildingParams>;
export type FloorPath = z.output<typeof floorParams>;
export type ZonePath = z.output<typeof zoneParams>;
export type WaterPointPath = z.output<typeof waterPointParams>;
