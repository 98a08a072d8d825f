import type { FieldError } from './errors.js';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** PostgreSQL stores neither a NUL character (text refuses it) nor a lone UTF-16 surrogate (jsonb refuses it). */
const UNSTORABLE = new RegExp(`\\u0000|${LONE_SURROGATE.source}`);

/**
 * What a platform sent, every string of it (values and member names, in plain objects and arrays) well-formed: a
 * lone surrogate — an emoji its sender's app cut in two — becomes U+FFFD, as a UTF-8 text column stores it, so
 * that the message is kept rather than refused for a character. A NUL stays, for `unstorableCharacters` to refuse.
 */
export function wellFormed<T>(value: T): T {
  if (typeof value === 'string') return value.replace(LONE_SURROGATE, '\ufffd') as T;
  if (Array.isArray(value)) return value.map((item: unknown) => wellFormed(item)) as T;
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([key, member]) => [wellFormed(key), wellFormed(member)])) as T;
  return value;
}

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
