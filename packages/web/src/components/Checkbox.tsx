import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import type { FieldError as HookFieldError } from 'react-hook-form';
import { FieldError } from './FieldError.tsx';

type CheckboxProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & {
  label: ReactNode;
  name: string;
  error?: HookFieldError;
  ref?: Ref<HTMLInputElement>;
};

export function Checkbox({ label, error, className = '', ref, ...props }: CheckboxProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={className}>
      <div className="flex items-start gap-2">
        <input
          id={id}
          ref={ref}
          type="checkbox"
          {...props}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className="mt-0.5 h-4 w-4 rounded border-slate-400 accent-sky-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600 dark:accent-sky-400"
        />
        <label htmlFor={id} className="text-sm text-slate-800 dark:text-slate-200">
          {label}
        </label>
      </div>
      <FieldError id={errorId} error={error} />
    </div>
  );
}
