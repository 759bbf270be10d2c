/**
 * The constraint a unique violation (SQLSTATE 23505) broke, or undefined when `error` is not one. Looks through
 * Drizzle's wrapping (`cause`), and works for both node-postgres and PGlite errors.
 */
export function uniqueViolation(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, constraint, cause } = e as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (code === '23505') return typeof constraint === 'string' ? constraint : '';
    e = cause;
  }
  return undefined;
}
