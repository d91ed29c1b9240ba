import { useState } from 'react';
import type { FieldValues, Path, UseFormHandleSubmit, UseFormSetError } from 'react-hook-form';
import { ApiRequestError } from './api-client.ts';

/**
 * Puts the server's field details (`{path, message}`, already translated) on the form's fields and
 * returns the message to show above the form. Details on fields the form lacks stay in that message.
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly string[],
): string {
  if (!(error instanceof ApiRequestError)) return error instanceof Error ? error.message : String(error);
  // An email already taken is the email field's problem, though the server says it in the message.
  if (error.code === 'errors.email_taken' && fields.includes('email') && !error.details?.length) {
    setError('email' as Path<T>, { type: 'server', message: error.message });
  }
  const unplaced: string[] = [];
  for (const detail of error.details ?? []) {
    const field = fields.find((name) => detail.path === name || detail.path.startsWith(`${name}.`));
    if (field) setError(detail.path as Path<T>, { type: 'server', message: detail.message });
    else unplaced.push(detail.message);
  }
  return unplaced.length ? `${error.message} (${unplaced.join(', ')})` : error.message;
}

/** A message the user may read: the server's, or the network/API fallback. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

type SubmittingForm<TFieldValues extends FieldValues, TValues> = {
  handleSubmit: UseFormHandleSubmit<TFieldValues, TValues>;
  setError: UseFormSetError<TFieldValues>;
};

/**
 * A form's submit: runs `action` on the checked values; when it throws, the server's details go on
 * the `fields` they name and its message into `failure`, for the form to show above itself.
 */
export function useFormSubmit<TFieldValues extends FieldValues, TValues>(
  { handleSubmit, setError }: SubmittingForm<TFieldValues, TValues>,
  fields: readonly string[],
  action: (values: TValues) => Promise<unknown>,
) {
  const [failure, setFailure] = useState<string | null>(null);
  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await action(values);
    } catch (error) {
      setFailure(applyServerErrors(error, setError, fields));
    }
  });
  return { submit, failure };
}
