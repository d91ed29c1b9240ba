import { LoginSchema, type LoginInput } from '@flowbox/shared';
import type { FieldError } from 'react-hook-form';

export type LoginErrors = Partial<Record<keyof LoginInput, FieldError>>;

/** The login form's check by the shared schema; its issues carry catalogue keys, first one a field. */
export function checkLogin(values: unknown): { values?: LoginInput; errors: LoginErrors } {
  const parsed = LoginSchema.safeParse(values);
  if (parsed.success) return { values: parsed.data, errors: {} };
  const errors: LoginErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if ((field === 'email' || field === 'password') && !errors[field]) {
      errors[field] = { type: issue.code, message: issue.message };
    }
  }
  return { errors };
}
