import { z } from 'zod';

/** spec §5: a second password field that must equal the first ("Passwords must match"). */
export function withPasswordConfirmation<Shape extends { password: z.ZodType<string> }>(
  schema: z.ZodObject<Shape>,
) {
  return schema.extend({ password_confirmation: z.string({ error: 'validation.required' }) }).refine(
    (values) => {
      const passwords = values as { password?: unknown; password_confirmation?: unknown };
      return passwords.password === passwords.password_confirmation;
    },
    {
      path: ['password_confirmation'],
      message: 'validation.password_match',
      // Checked even while other fields are still wrong, so every error shows at once.
      when: () => true,
    },
  );
}
