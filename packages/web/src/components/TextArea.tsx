import { useId, type Ref, type TextareaHTMLAttributes } from 'react';
import type { FieldError as HookFieldError } from 'react-hook-form';
import { FieldError } from './FieldError.tsx';
import { INPUT_CLASS } from './TextField.tsx';

type TextAreaProps = TextareaHTMLAttributes<HTMLTextAreaElement> & {
  label: string;
  name: string;
  error?: HookFieldError;
  hint?: string;
  ref?: Ref<HTMLTextAreaElement>;
};

/** A labelled multi-line text (notes); its error and hint are tied to it, as TextField's. */
export function TextArea({ label, error, hint, className = '', ref, rows = 4, ...props }: TextAreaProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-800 dark:text-slate-200">
        {label}
      </label>
      <textarea
        id={id}
        ref={ref}
        rows={rows}
        {...props}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={INPUT_CLASS}
      />
      {hint && (
        <p id={hintId} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      )}
      <FieldError id={errorId} error={error} max={props.maxLength} />
    </div>
  );
}
