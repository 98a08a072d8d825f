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
  | 'req';

/** An opaque, time-sortable id: the prefix, `_`, and a lowercase ULID. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${nextUlid().toLowerCase()}`;
}
