/*
 * What a failed query says about the database (docs/reliability.md "Database failures"): a lost or
 * refused connection is the database being away, and trying again later (the same batch, the same
 * device message) will do; a data exception is the statement's own values, and the same values will
 * fail again however often they are sent.
 */

/** SQLSTATE of a database error, looked for through drizzle's wrapping (`cause`). */
export function sqlState(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Node socket errors of a connection that broke or could not be made. */
const SOCKET_ERRORS = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);
/** node-postgres and pg-pool say these without a code. */
const LOST_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
];

/**
 * The database is away or dropped the connection: class 08 (connection exception), 57P01–57P03
 * (administrator shutdown or pg_terminate_backend, crash shutdown, cannot connect now), 53300 (too
 * many connections), a socket error, or node-postgres' own "Connection terminated…".
 */
export function isConnectionError(error: unknown): boolean {
  const state = sqlState(error);
  if (state && (state.startsWith('08') || ['57P01', '57P02', '57P03', '53300'].includes(state))) return true;
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && SOCKET_ERRORS.has(code)) return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && LOST_MESSAGES.some((m) => message.includes(m))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * The statement's own values were refused (class 22, data exception: a date out of range, a
 * number too large, a bad encoding): sending the same values again fails again.
 */
export function isDataError(error: unknown): boolean {
  return sqlState(error)?.startsWith('22') ?? false;
}

/**
 * The database has no room left (53100, disk_full: a table or its write-ahead log could not grow).
 * Nothing the statement holds is at fault and splitting it mends nothing; room has to be made.
 */
export function isDiskFull(error: unknown): boolean {
  return sqlState(error) === '53100';
}
