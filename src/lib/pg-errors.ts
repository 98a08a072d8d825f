/** PostgreSQL SQLSTATE codes the service reacts to (https://www.postgresql.org/docs/current/errcodes-appendix.html). */
export const SqlState = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  checkViolation: '23514',
  invalidTextRepresentation: '22P02',
  duplicateDatabase: '42P04',
  serializationFailure: '40001',
  lockNotAvailable: '55P03',
} as const;

/** The driver's error, also when Objection has wrapped it (its `nativeError`). */
function driverError(error: unknown): { code?: unknown; constraint?: unknown } | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const native = (error as { nativeError?: unknown }).nativeError;
  return (typeof native === 'object' && native !== null ? native : error) as { code?: unknown; constraint?: unknown };
}

export function sqlStateOf(error: unknown): string | undefined {
  const code = driverError(error)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (sqlStateOf(error) !== SqlState.uniqueViolation) return false;
  return constraint === undefined || driverError(error)?.constraint === constraint;
}
