import { monotonicFactory } from 'ulid';

const nextUlid = monotonicFactory();

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
