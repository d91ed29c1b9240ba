import type { Weekday } from '@flowbox/shared';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import {
  OpeningHoursField,
  openingHoursValueOf,
  type OpeningHoursErrors,
  type OpeningHoursValue,
} from './OpeningHoursField.tsx';

type OpeningHoursInputProps<T extends FieldValues> = {
  control: Control<T>;
  name: Path<T>;
  legend: string;
  hint?: string;
  firstDayOfWeek?: Weekday;
};

/** The opening-hours editor bound to a form's field, its errors (per day, per interval) included. */
export function OpeningHoursInput<T extends FieldValues>({
  control,
  name,
  ...field
}: OpeningHoursInputProps<T>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field: { value, onChange }, fieldState }) => (
        <OpeningHoursField
          {...field}
          value={openingHoursValueOf(value as Partial<OpeningHoursValue> | null)}
          onChange={onChange}
          // The error of an object field is the tree of its parts' errors.
          errors={fieldState.error as OpeningHoursErrors | undefined}
        />
      )}
    />
  );
}
