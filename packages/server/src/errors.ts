import type { ErrorCode } from '@flowbox/shared';

/** A failure the user should read: an HTTP status and a catalogue code (STYLE.md: typed errors). */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly params: Record<string, string | number> = {},
    readonly details?: { path: string; message: string; params?: Record<string, string | number> }[],
  ) {
    super(code);
  }
}

export const forbidden = () => new AppError(403, 'errors.forbidden');
export const notFound = () => new AppError(404, 'errors.not_found');
export const namesMismatch = () => new AppError(400, 'errors.names_mismatch');
