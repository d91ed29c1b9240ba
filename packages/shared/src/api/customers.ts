import { z } from 'zod';
import { backendDate, optionalText, requiredText } from '../validation.ts';
import { checkCoordinatePair, coordinateFields } from './coordinates.ts';

export const ContactSchema = z.object({
  name: optionalText(120).default(''),
  email: z.union([z.literal(''), z.email('validation.email')]).default(''),
  phone: optionalText(40).default(''),
});
export type Contact = z.infer<typeof ContactSchema>;

export const CustomerSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  logo: z.string().nullable(),
  operations_contact: ContactSchema.nullable(),
  technical_contact: ContactSchema.nullable(),
  administrative_contact: ContactSchema.nullable(),
  subscription_date: z.string().nullable(),
  flowbox_count: z.number().int(),
  site_count: z.number().int(),
  created_at: z.string(),
});
export type Customer = z.infer<typeof CustomerSchema>;

export const CustomerCreateSchema = z.object({
  name: requiredText(),
  operations_contact: ContactSchema.nullable().optional(),
  technical_contact: ContactSchema.nullable().optional(),
  administrative_contact: ContactSchema.nullable().optional(),
  subscription_date: backendDate.nullable().optional(),
});
export type CustomerCreateInput = z.input<typeof CustomerCreateSchema>;

export const CustomerUpdateSchema = CustomerCreateSchema.partial();
export type CustomerUpdateInput = z.input<typeof CustomerUpdateSchema>;

export const SiteSchema = z.object({
  id: z.uuid(),
  customer_id: z.uuid(),
  name: z.string(),
  plan: z.string().nullable(),
  logo: z.string().nullable(),
  /** WGS84 degrees (docs/maps.md); null: not placed on the map. */
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  building_count: z.number().int(),
  created_at: z.string(),
});
export type Site = z.infer<typeof SiteSchema>;

const SiteFieldsSchema = z.object({ name: requiredText(), ...coordinateFields });
export const SiteCreateSchema = SiteFieldsSchema.superRefine(checkCoordinatePair);
export type SiteCreateInput = z.input<typeof SiteCreateSchema>;
export const SiteUpdateSchema = SiteFieldsSchema.partial().superRefine(checkCoordinatePair);
export type SiteUpdateInput = z.input<typeof SiteUpdateSchema>;
