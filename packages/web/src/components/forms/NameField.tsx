import { NAME_MAX } from '@flowbox/shared';
import { useTranslation } from 'react-i18next';
import { TextField, type TextFieldProps } from '../TextField.tsx';

/** An item's name (a building, a zone, a plan…): required, at most NAME_MAX characters, never autofilled. */
export function NameField(props: Omit<TextFieldProps, 'label' | 'maxLength'>) {
  const { t } = useTranslation();
  return <TextField label={t('fields.name')} maxLength={NAME_MAX} required autoComplete="off" {...props} />;
}
