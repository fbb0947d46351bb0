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
