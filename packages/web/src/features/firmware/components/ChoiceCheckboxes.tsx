import { useId } from 'react';
import type { FieldError as HookFieldError } from 'react-hook-form';
import { Checkbox } from '../../../components/Checkbox.tsx';
import { FieldError } from '../../../components/FieldError.tsx';

/**
 * Several choices of one list (models, customers) as a group of checkboxes: always a list, even
 * with one option, which a plain registered checkbox is not.
 */
export function ChoiceCheckboxes({
  legend,
  name,
  options,
  value,
  onChange,
  error,
  required = false,
}: {
  legend: string;
  name: string;
  options: readonly { value: string; label: string }[];
  value: readonly string[];
  onChange: (value: string[]) => void;
  error?: HookFieldError;
  required?: boolean;
}) {
  const errorId = `${useId()}-error`;
  const toggle = (option: string, checked: boolean) =>
    onChange(
      checked
        ? options.map((o) => o.value).filter((v) => v === option || value.includes(v))
        : value.filter((v) => v !== option),
    );
  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <legend className="mb-1 text-sm font-medium text-slate-800 dark:text-slate-200">
        {legend}
        {required && (
          <span aria-hidden="true" className="ml-1 text-red-700 dark:text-red-400">
            *
          </span>
        )}
      </legend>
      <div className="flex flex-wrap gap-x-5 gap-y-2">
        {options.map((option) => (
          <Checkbox
            key={option.value}
            name={name}
            value={option.value}
            label={option.label}
            checked={value.includes(option.value)}
            onChange={(event) => toggle(option.value, event.target.checked)}
          />
        ))}
      </div>
      <FieldError id={errorId} error={error} />
    </fieldset>
  );
}
