import type { Prepared } from './attempt.js';
import type { LeasedAhead } from './claim.js';

/** A target leased ahead, its attempt prepared, waiting for its due time. */
export interface Waiting extends LeasedAhead {
  prepared: Prepared;
  /** When the worker tries to start it (ms): its due time, or a little later when the database found it early. */
  startAt: number;
}

/**
 * The targets a worker holds ahead of their due time, soonest first. Only the worker's own turns touch it, each
 * without awaiting in between, so two claim loops never take one target.
 */
export class AheadQueue {
  private waiting: Waiting[] = [];

  get size(): number {
    return this.waiting.length;
  }

  add(items: Waiting[]): void {
    if (items.length === 0) return;
    this.waiting.push(...items);
    this.waiting.sort((a, b) => a.startAt - b.startAt);
  }

  /** How many are due by now. */
  due(): number {
    const now = Date.now();
    let [low, high] = [0, this.waiting.length];
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.waiting[middle]!.startAt <= now) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Takes out up to `n` of those due by now. */
  takeDue(n: number): Waiting[] {
    return this.waiting.splice(0, Math.min(n, this.due()));
  }

  /** Takes out all of them. */
  takeAll(): Waiting[] {
    return this.waiting.splice(0);
  }

  /** Milliseconds until the soonest is due (Infinity when none waits). */
  untilNext(): number {
    return this.waiting.length === 0 ? Infinity : Math.max(0, this.waiting[0]!.startAt - Date.now());
  }

  /** Those whose lease runs out within `ms` (past their due time, waiting for a free slot). */
  expiringWithin(ms: number): Waiting[] {
    const by = Date.now() + ms;
    return this.waiting.filter((item) => item.lockedUntil.getTime() <= by);
  }
}
