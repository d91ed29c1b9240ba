import { z } from 'zod';
import { ListQuerySchema } from './errors.ts';
import { optionalText, requiredText } from '../validation.ts';
import { checkCoordinatePair, coordinateFields } from './coordinates.ts';

/**
 * What a plumber of the directory does (docs/maps.md lists them with their EN/FR labels). Stored
 * by these codes; the web shows the labels.
 */
export const PLUMBER_SPECIALITIES = [
  'leak_repair',
  'emergency',
  'pipework',
  'valves',
  'flowbox_installation',
  'water_heaters',
  'drainage',
  'bathrooms',
  'heating',
  'irrigation',
] as const;
export type PlumberSpeciality = (typeof PLUMBER_SPECIALITIES)[number];

/** How far a plumber may say they travel (km). */
export const MAX_SERVICE_RADIUS_KM = 1000;

const phoneField = optionalText(40).refine(
  (p) => p === '' || /^\+?[0-9 ().-]{3,40}$/.test(p),
  'validation.phone',
);

const PlumberFieldsSchema = z.object({
  company: requiredText(),
  contact_name: optionalText(120).optional(),
  phone: phoneField.optional(),
  email: z
    .union(
      [
        z.literal(''),
        z.string().trim().toLowerCase().max(254, 'validation.too_long').pipe(z.email('validation.email')),
      ],
      {
        error: 'validation.email',
      },
    )
    .optional(),
  address: optionalText(300).optional(),
  ...coordinateFields,
  service_radius_km: z
    .number({ error: 'validation.number' })
    .int('validation.integer')
    .min(1, 'validation.min_one')
    .max(MAX_SERVICE_RADIUS_KM, 'validation.max')
    .nullable()
    .optional(),
  specialities: z
    .array(z.enum(PLUMBER_SPECIALITIES, 'validation.select'), { error: 'validation.invalid' })
    .max(PLUMBER_SPECIALITIES.length, 'validation.max')
    .refine((s) => new Set(s).size === s.length, 'validation.unique')
    .optional(),
  availability: optionalText(1000).optional(),
});

/**
 * A directory entry. `customer_id` says whose it is: a customer's, or (null, the provider managers
 * only) one the provider shares with every customer.
 */
export const PlumberCreateSchema = PlumberFieldsSchema.extend({
  customer_id: z.uuid('validation.invalid').nullable().optional(),
}).superRefine(checkCoordinatePair);
export type PlumberCreateInput = z.input<typeof PlumberCreateSchema>;

export const PlumberUpdateSchema = PlumberFieldsSchema.partial().superRefine(checkCoordinatePair);
export type PlumberUpdateInput = z.input<typeof PlumberUpdateSchema>;

export const PlumberSchema = z.object({
  id: z.uuid(),
  /** null: the provider's, shared with every customer. */
  customer_id: z.uuid().nullable(),
  /** The customer's name; null for a shared entry. */
  customer_name: z.string().nullable(),
  company: z.string(),
  contact_name: z.string(),
  phone: z.string(),
  email: z.string(),
  address: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  service_radius_km: z.number().int().nullable(),
  specialities: z.array(z.enum(PLUMBER_SPECIALITIES)),
  availability: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Plumber = z.infer<typeof PlumberSchema>;

/** Whose entries a list shows: everything the caller sees, only shared ones, or only customers' own. */
export const PLUMBER_OWNERS = ['all', 'shared', 'customer'] as const;
export type PlumberOwner = (typeof PLUMBER_OWNERS)[number];

export const PlumberListQuerySchema = ListQuerySchema.extend({
  speciality: z.enum(PLUMBER_SPECIALITIES, 'validation.select').optional(),
  owner: z.enum(PLUMBER_OWNERS, 'validation.select').default('all'),
  /** Only the entries a customer sees (its own and the shared ones); provider managers choose it. */
  customer_id: z.uuid('validation.invalid').optional(),
  located: z.enum(['true', 'false'], 'validation.select').optional(),
});
export type PlumberListQuery = z.infer<typeof PlumberListQuerySchema>;

/** One entry of the nearest plumbers of a site: its distance and whether its service area covers the site. */
export const NearestPlumberSchema = PlumberSchema.extend({
  distance_km: z.number(),
  covers_site: z.boolean(),
});
export type NearestPlumber = z.infer<typeof NearestPlumberSchema>;

export const NearestPlumbersQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int('validation.integer')
    .min(1, 'validation.min_one')
    .max(50, 'validation.max')
    .default(10),
});

export const NearestPlumbersSchema = z.object({
  /** Where the site is (its own coordinates, else its buildings' centre); null: nowhere known. */
  site: z.object({ latitude: z.number(), longitude: z.number() }).nullable(),
  items: z.array(NearestPlumberSchema),
});
export type NearestPlumbers = z.infer<typeof NearestPlumbersSchema>;

/** The map's settings (docs/operations.md "Maps"): the tile server the web's maps load. */
export const MapSettingsSchema = z.object({
  tile_url: z.string(),
  attribution: z.string(),
});
export type MapSettings = z.infer<typeof MapSettingsSchema>;

/** A site on the map of sites, with its state in counts. */
export const SiteMapItemSchema = z.object({
  id: z.uuid(),
  customer_id: z.uuid(),
  customer_name: z.string(),
  name: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  open_alerts: z.number().int(),
  offline_flowboxes: z.number().int(),
  closed_valves: z.number().int(),
});
export type SiteMapItem = z.infer<typeof SiteMapItemSchema>;

export const SiteMapQuerySchema = z.object({ customer_id: z.uuid('validation.invalid').optional() });

/** The most sites one map answer carries; `truncated` says when there were more. */
export const SITE_MAP_LIMIT = 5000;
export const SiteMapSchema = z.object({ items: z.array(SiteMapItemSchema), truncated: z.boolean() });
export type SiteMap = z.infer<typeof SiteMapSchema>;
