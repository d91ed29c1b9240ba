import { useId, type Ref, type SelectHTMLAttributes } from 'react';
import type { FieldError as HookFieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FieldError } from './FieldError.tsx';
import { INPUT_CLASS } from './TextField.tsx';

export type SelectProps = SelectHTMLAttributes<HTMLSelectElement> & {
  label: string;
  name: string;
  options: readonly { value: string; label: string }[];
  error?: HookFieldError;
  /** The empty choice; a filter says "All" where a form field asks to choose. */
  placeholder?: string;
  ref?: Ref<HTMLSelectElement>;
};

/**
 * A labelled select whose empty choice reads "Please select an option" (spec §5): shown until a
 * choice is made, never a choice itself (issue 30: a filter offered it as a value). A placeholder
 * given ("All") is a real choice.
 */
export function Select({ label, options, error, placeholder, className = '', ref, ...props }: SelectProps) {
  const { t } = useTranslation();
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={className}>
      <div className="mb-1 flex gap-1 text-sm font-medium text-slate-800 dark:text-slate-200">
        <label htmlFor={id}>{label}</label>
        {props.required && (
          <span aria-hidden="true" className="text-red-700 dark:text-red-400">
            *
          </span>
        )}
      </div>
      <select
        id={id}
        ref={ref}
        {...props}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={INPUT_CLASS}
      >
        {placeholder === undefined ? (
          <option value="" disabled hidden>
            {t('validation.select')}
          </option>
        ) : (
          <option value="">{placeholder}</option>
        )}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldError id={errorId} error={error} />
    </div>
  );
}
