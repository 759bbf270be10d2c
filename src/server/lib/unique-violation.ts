/** The first error along Drizzle's wrapping (`cause`) whose SQLSTATE is `code`; node-postgres and PGlite alike. */
function withSqlState(error: unknown, code: string): { constraint?: unknown } | undefined {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    if ((e as { code?: unknown }).code === code) return e as { constraint?: unknown };
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The constraint a unique violation (SQLSTATE 23505) broke, or undefined when `error` is not one. */
export function uniqueViolation(error: unknown): string | undefined {
  const found = withSqlState(error, '23505');
  if (!found) return undefined;
  return typeof found.constraint === 'string' ? found.constraint : '';
}

/** Whether `error` is a foreign-key violation (SQLSTATE 23503): a row it points to is gone. */
export function foreignKeyViolation(error: unknown): boolean {
  return withSqlState(error, '23503') !== undefined;
}
