/**
 * Whether a database error (or one wrapping it, as Drizzle does) is a unique-constraint violation: both drivers
 * report PostgreSQL's SQLSTATE 23505 in `code`.
 */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    if ((e as { code?: unknown }).code === '23505') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** The SQLSTATE (or, for a connection that failed, the driver's code) of a database error, through Drizzle's wrapping. */
export function dbErrorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

// postgres-js's own codes for a connection it could not open or lost, and the network's
const CONNECTION_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * The database cannot be reached or is going away (PostgreSQL restarting: 57P01–57P03, class 08): worth a 503 with
 * Retry-After rather than a 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const code = dbErrorCode(err);
  return (
    code !== undefined && (CONNECTION_CODES.has(code) || code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03')
  );
}

/**
 * A value the database refuses as data (class 22: a NUL character, a number out of range, a malformed UUID…): the
 * request's mistake, answered 400, when a route's own checks let it through.
 */
export function isDataException(err: unknown): boolean {
  return dbErrorCode(err)?.startsWith('22') === true;
}
