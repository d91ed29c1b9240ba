import { z } from 'zod';

/** The one error shape of the API: a catalogue code, its message in the caller's language, field details. */
export const ApiErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ApiError = z.infer<typeof ApiErrorSchema>;

export const MessageSchema = z.object({ message: z.string() });
export type MessageAnswer = z.infer<typeof MessageSchema>;

/** Confirmation for destructive actions: the item's name typed by the user (spec §5). */
export const ConfirmNameSchema = z.object({
  confirm_name: z.string({ error: 'validation.required' }).max(500, 'validation.too_long'),
});
export type ConfirmName = z.infer<typeof ConfirmNameSchema>;

/**
 * How deep an OFFSET page may start: the database walks every row before it, so a call's cost
 * would grow with what is stored. Past it, a search narrows the list (docs/decisions.md "Offsets").
 */
export const LIST_OFFSET_MAX = 10_000;

/** Every list's `offset`, one rule: a whole number from 0 to LIST_OFFSET_MAX. */
export const OffsetSchema = z.coerce
  .number('validation.number')
  .int('validation.integer')
  .min(0, 'validation.invalid')
  .max(LIST_OFFSET_MAX, 'validation.max')
  .default(0);

export const ListQuerySchema = z.object({
  search: z.string().trim().max(120, 'validation.too_long').optional(),
  limit: z.coerce.number().int('validation.integer').min(1, 'validation.min_one').max(500).default(100),
  offset: OffsetSchema,
});
export type ListQuery = z.infer<typeof ListQuerySchema>;

export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int() });
