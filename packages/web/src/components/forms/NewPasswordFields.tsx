import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { TextField } from '../TextField.tsx';

type Field = { register: UseFormRegisterReturn; error?: FieldError };

/** A new password typed twice (spec §5: the rule as a hint, "Passwords must match"). */
export function NewPasswordFields({
  password,
  confirmation,
  label,
}: {
  password: Field;
  confirmation: Field;
  /** "Password" on registration, "New password" where one is replaced. */
  label: 'fields.password' | 'fields.new_password';
}) {
  const { t } = useTranslation();
  return (
    <>
      <TextField
        label={t(label)}
        type="password"
        autoComplete="new-password"
        maxLength={200}
        required
        hint={t('fields.password_hint')}
        error={password.error}
        {...password.register}
      />
      <TextField
        label={t('fields.password_confirmation')}
        type="password"
        autoComplete="new-password"
        maxLength={200}
        required
        error={confirmation.error}
        {...confirmation.register}
      />
    </>
  );
}
