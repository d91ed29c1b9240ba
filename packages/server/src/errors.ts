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

/** A 429: the caller may try again in `retryAfterS` seconds, sent as `Retry-After` (RFC 9110 §10.2.3). */
export class TooManyRequests extends AppError {
  constructor(
    code: ErrorCode,
    readonly retryAfterS: number,
    params: Record<string, string | number> = {},
  ) {
    super(429, code, params);
  }
}

export const forbidden = () => new AppError(403, 'errors.forbidden');
export const notFound = () => new AppError(404, 'errors.not_found');
export const namesMismatch = () => new AppError(400, 'errors.names_mismatch');
