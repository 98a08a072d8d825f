import type { FieldError } from './errors.js';

/** PostgreSQL stores neither a NUL character (text refuses it) nor a lone UTF-16 surrogate (jsonb refuses it). */
// eslint-disable-next-line no-control-regex -- the NUL character is exactly what this looks for.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Every string of a value (a request, the events read from a platform's webhook; values and member names, at
 * any depth) that holds a character PostgreSQL cannot store: refused before anything is stored rather than as a
 * 500 from the statement. Walked with a stack, as a body may nest deeply.
 */
export function unstorableCharacters(where: string, value: unknown): FieldError[] {
  const found: FieldError[] = [];
  const pending: Array<[string, unknown]> = [[where, value]];
  while (pending.length > 0) {
    const [path, item] = pending.pop()!;
    if (typeof item === 'string') {
      if (UNSTORABLE.test(item)) found.push({ path, message: 'contains a NUL character or a lone surrogate', code: 'characters' });
    } else if (typeof item === 'object' && item !== null) {
      for (const [key, member] of Object.entries(item)) {
        if (UNSTORABLE.test(key))
          found.push({ path, message: 'has a member name with a NUL character or a lone surrogate', code: 'characters' });
        else pending.push([`${path}/${key}`, member]);
      }
    }
  }
  return found;
}
