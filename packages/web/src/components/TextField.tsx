import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import type { FieldError as HookFieldError } from 'react-hook-form';
import { FieldError } from './FieldError.tsx';

export const INPUT_CLASS =
  'block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ' +
  'placeholder:text-slate-400 focus:border-sky-600 focus:outline-2 focus:outline-sky-600/30 ' +
  'disabled:bg-slate-100 disabled:text-slate-500 aria-[invalid=true]:border-red-600 ' +
  'dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:disabled:bg-slate-800';

export type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  name: string;
  error?: HookFieldError;
  hint?: string;
  ref?: Ref<HTMLInputElement>;
  /** A control beside the input (a date field's calendar button). */
  addon?: ReactNode;
};

/** A labelled input; its error and hint are tied to it with aria-describedby. */
export function TextField({ label, error, hint, className = '', ref, addon, ...props }: TextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  const input = (
    <input
      id={id}
      ref={ref}
      {...props}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy}
      className={INPUT_CLASS}
    />
  );
  return (
    <div className={className}>
      <div className="mb-1 flex gap-1 text-sm font-medium text-slate-800 dark:text-slate-200">
        <label htmlFor={id}>{label}</label>
        {/* Outside the label, so the field's accessible name is its label alone. */}
        {props.required && (
          <span aria-hidden="true" className="text-red-700 dark:text-red-400">
            *
          </span>
        )}
      </div>
      {addon ? (
        <div className="flex gap-2">
          {input}
          {addon}
        </div>
      ) : (
        input
      )}
      {hint && (
        <p id={hintId} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      )}
      <FieldError id={errorId} error={error} max={props.maxLength} />
    </div>
  );
}
