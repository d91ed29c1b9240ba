import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import { DateField } from '../DateField.tsx';

type DateInputProps<T extends FieldValues> = {
  control: Control<T>;
  name: Path<T>;
  label: string;
  required?: boolean;
  disabled?: boolean;
  /** What an emptied box sends: '' (a required date: the schema asks for one) or null (no date). */
  empty?: '' | null;
};

/** A date field bound to a form's field: the form holds yyyy-MM-dd whatever the box shows. */
export function DateInput<T extends FieldValues>({
  control,
  name,
  disabled,
  empty = '',
  ...field
}: DateInputProps<T>) {
  return (
    <Controller
      control={control}
      name={name}
      disabled={disabled}
      render={({ field: { value, onChange, onBlur, ref, disabled: off }, fieldState }) => (
        <DateField
          {...field}
          name={name}
          ref={ref}
          value={value as string | null}
          onChange={(text) => onChange(text === '' ? empty : text)}
          onBlur={onBlur}
          disabled={off}
          error={fieldState.error}
        />
      )}
    />
  );
}
