/**
 * Field lengths the forms and the schemas share (validation.ts). Apart from the schemas so that a
 * page reading a limit does not load zod with it.
 */
export const PASSWORD_MIN_LENGTH = 8;
export const NAME_MAX = 120;
export const TEXT_MAX = 500;
