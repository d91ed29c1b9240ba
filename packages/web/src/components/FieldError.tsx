import { NAME_MAX, PASSWORD_MIN_LENGTH } from '@flowbox/shared';
import type { FieldError as HookFieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { isTranslationKey } from '../lib/i18n/keys.ts';

/**
 * Shows a field's error. Client issues carry catalogue keys ("validation.required"), translated
 * here so a language switch updates them; server details arrive translated and pass through.
 */
export function FieldError({ id, error, max }: { id: string; error?: HookFieldError; max?: number }) {
  const { t } = useTranslation();
  if (!error?.message) return null;
  return (
    <p id={id} className="mt-1 text-sm text-red-700 dark:text-red-400">
      {isTranslationKey(error.message)
        ? t(error.message, { min: PASSWORD_MIN_LENGTH, max: max ?? NAME_MAX })
        : error.message}
    </p>
  );
}
