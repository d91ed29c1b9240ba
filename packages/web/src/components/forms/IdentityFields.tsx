import { LANGUAGES } from '@flowbox/shared';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Select } from '../Select.tsx';
import { TextField } from '../TextField.tsx';

type Field = { register: UseFormRegisterReturn; error?: FieldError };

type IdentityFieldsProps = {
  firstname: Field;
  lastname: Field;
  email: Field;
  language?: Field;
  address?: Field;
  /** One's own details: the browser may fill them in. A manager typing someone else's: it may not. */
  own: boolean;
};

/** The person fields every user form has (spec §3: names, email, language, a manager's address). */
export function IdentityFields({ firstname, lastname, email, language, address, own }: IdentityFieldsProps) {
  const { t } = useTranslation();
  const fill = (hint: string) => (own ? hint : 'off');
  return (
    <>
      <TextField
        label={t('fields.firstname')}
        autoComplete={fill('given-name')}
        maxLength={120}
        required
        error={firstname.error}
        {...firstname.register}
      />
      <TextField
        label={t('fields.lastname')}
        autoComplete={fill('family-name')}
        maxLength={120}
        required
        error={lastname.error}
        {...lastname.register}
      />
      <TextField
        label={t('fields.email')}
        type="email"
        autoComplete={fill('email')}
        maxLength={254}
        required
        error={email.error}
        className={language ? undefined : 'sm:col-span-2'}
        {...email.register}
      />
      {language && (
        <Select
          label={t('fields.language')}
          options={LANGUAGES.map((code) => ({ value: code, label: t(`language.${code}`) }))}
          error={language.error}
          {...language.register}
        />
      )}
      {address && (
        <TextField
          label={t('fields.address')}
          autoComplete={fill('street-address')}
          maxLength={500}
          error={address.error}
          className="sm:col-span-2"
          {...address.register}
        />
      )}
    </>
  );
}
