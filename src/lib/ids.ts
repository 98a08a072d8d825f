import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';

/** Random bytes from the system's generator, drawn a pool at a time: the ULID library asks for one per character. */
const pool = new Uint8Array(4096);
let drawn = pool.length;

function randomFraction(): number {
  if (drawn === pool.length) {
    randomFillSync(pool);
    drawn = 0;
  }
  return pool[drawn++]! / 256;
}

const nextUlid = monotonicFactory(randomFraction);

/** Id prefixes, one per kind of object (listed in openapi/README.md). */
export type IdPrefix =
  | 'own'
  | 'sess'
  | 'key'
  | 'prof'
  | 'acc'
  | 'adacc'
  | 'pconn'
  | 'post'
  | 'media'
  | 'slot'
  | 'task'
  | 'crtask'
  | 'boost'
  | 'conv'
  | 'msg'
  | 'auto'
  | 'arun'
  | 'form'
  | 'lead'
  | 'wprog'
  | 'wpass'
  | 'wtx'
  | 'hook'
  | 'evt'
  | 'dlv'
  | 'cat'
  | 'prod'
  | 'pset'
  | 'pbat'
  | 'aupl'
  | 'upl'
  | 'req';

declare const kind: unique symbol;

/** An id of one kind of object: a string still, but one kind's id does not type-check where another kind's is expected. */
export type Id<P extends IdPrefix> = string & { readonly [kind]: P };
export type AccountId = Id<'acc'>;
export type AdAccountId = Id<'adacc'>;

/** An opaque, time-sortable id: the prefix, `_`, and a lowercase ULID. */
export function newId<P extends IdPrefix>(prefix: P): Id<P> {
  return `${prefix}_${nextUlid().toLowerCase()}` as Id<P>;
}

/**
 * An id the service was given (a request's path or body, another area's row), taken as the kind of id its place
 * names: where it is of another kind, its own prefix makes it match nothing (a 404), never the wrong object.
 */
export function idOf<P extends IdPrefix>(_prefix: P, given: string): Id<P> {
  return given as Id<P>;
}
