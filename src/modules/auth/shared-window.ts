import type { Db } from '../../db/database.js';
import type { Logger } from '../../lib/logger.js';

export interface WindowSettings {
  /** `rate_limits.key` is `<keyPrefix>:<id>` (a principal's id, a client address). */
  keyPrefix: string;
  points: number;
  windowMs: number;
  /**
   * Once the database has refused a key, refuse it from memory until its window ends, without asking again: a
   * flood from one client address costs no round trips. Otherwise every request that may be over budget asks
   * the database, so that a window ended there by hand is seen at once.
   */
  refuseFromMemory?: boolean;
}

/** Where a key's window stands after this request. */
export interface WindowCount {
  /** Points used in the window, this request included; above the window's points: refused. */
  consumed: number;
  /** When the window ends (epoch ms). */
  expire: number;
}

/**
 * The share of a window's points one process may admit before the database has counted them. With N API
 * processes a window admits at most `points + N × floor(points × UNCOUNTED_SHARE)` requests, never fewer
 * than `points` (README, "Rate limits"); below 100 points every request is counted before it is answered.
 */
export const UNCOUNTED_SHARE = 0.01;

/** Requests admitted without a round trip reach the database within this time even when no more come. */
const FLUSH_MS = 100;

/** Beyond this many keys, those whose window has ended are forgotten. */
const MAX_TALLIES = 10_000;

/**
 * The window's count in the `rate_limits` table (`points`, `expire` in epoch ms),
 * raised by `$2` points: `$1` key, `$3` now, `$4` the end of a window opened now, `$5` the window's points.
 * A window that has ended starts over; one over budget is left as it is (no write), and the answer says it is
 * over budget: the row this statement reads (`stored`, as of its snapshot) may be older than the one the update
 * found over budget, when another process's count committed in between, and must not admit the request.
 *
 * The transaction writes nothing but that count, so it commits without waiting for its WAL to reach the disk
 * (synchronous_commit off, for this transaction only): a crash of PostgreSQL may forget the last fraction of a
 * second of counts, and each count saves a WAL flush.
 */
const COUNT = `
  WITH counted AS (
    INSERT INTO rate_limits AS r (key, points, expire) VALUES ($1::text, $2::integer, $4::bigint)
    ON CONFLICT (key) DO UPDATE SET
      points = CASE WHEN r.expire <= $3::bigint THEN EXCLUDED.points ELSE r.points + EXCLUDED.points END,
      expire = CASE WHEN r.expire <= $3::bigint THEN EXCLUDED.expire ELSE r.expire END
      WHERE r.expire <= $3::bigint OR r.points <= $5::integer
    RETURNING points, expire
  )
  SELECT coalesce(counted.points, greatest(stored.points, $5::integer + 1)) AS points,
         coalesce(counted.expire, stored.expire, $4::bigint) AS expire,
         set_config('synchronous_commit', 'off', true) AS relaxed
    FROM (SELECT 1) AS one
    LEFT JOIN counted ON true
    LEFT JOIN rate_limits stored ON stored.key = $1::text`;

/** This process's view of one key's window. */
interface Tally {
  expire: number;
  /** The database's count when it last answered; this process's own while `local`. */
  counted: number;
  /** The window is this process's alone: the database could not count when it was last asked. */
  local: boolean;
  /** Admitted here and not sent yet. */
  unsent: number;
  /** Admitted here and sent, not answered yet. */
  sending: number;
  /** The latest count in flight, which a request finding the batch full waits for. */
  flight: Promise<unknown> | null;
  timer: NodeJS.Timeout | null;
}

/**
 * A fixed window per key shared by every API process through PostgreSQL, counted in batches: a process admits
 * up to `batch` requests on its last known count without a round trip, and sends them together (when the batch
 * is full, after FLUSH_MS, or with the next request that must ask). Any request that could be over budget asks
 * the database, which alone refuses (or, with `refuseFromMemory`, has refused once this window).
 *
 * While the database cannot count (unreachable, failing), this process counts alone, carrying on from its last
 * known count, rather than failing every request: the health route must answer then. The requests counted
 * here are not sent later; the database's count is taken up again at its next answer.
 */
export class SharedWindows {
  private readonly tallies = new Map<string, Tally>();
  private readonly batch: number;
  /** Whether the last count failed in the database, so that the change is logged once each way. */
  private countingHere = false;

  constructor(
    private readonly db: Db,
    private readonly settings: WindowSettings,
    private readonly logger: Logger,
  ) {
    this.batch = Math.floor(settings.points * UNCOUNTED_SHARE);
  }

  /** Counts one request of `id`. */
  async count(id: string): Promise<WindowCount> {
    const tally = this.tallyOf(id);
    for (;;) {
      if (tally.expire > Date.now()) {
        if (this.settings.refuseFromMemory && tally.counted > this.settings.points) {
          return { consumed: tally.counted + 1, expire: tally.expire };
        }
        const pending = tally.unsent + tally.sending;
        const withinBudget = tally.counted + pending < this.settings.points;
        if (withinBudget && pending < this.batch) {
          tally.unsent += 1;
          tally.timer ??= setTimeout(() => void this.flush(id, tally), FLUSH_MS).unref();
          return { consumed: tally.counted + pending + 1, expire: tally.expire };
        }
        // The batch is full: the count in flight makes room. A request that may be over budget, or that must be
        // counted before it is answered anyway (no batch), asks on its own.
        if (withinBudget && this.batch > 0 && tally.flight) {
          await tally.flight.catch(() => {});
          continue;
        }
      }
      return this.send(id, tally, 1);
    }
  }

  /**
   * Sends what was admitted and not sent yet, and waits for the counts in flight: called once no request comes
   * any more (the HTTP server has closed), before the pool they are written through closes.
   */
  async stop(): Promise<void> {
    await Promise.all([...this.tallies].map(([id, tally]) => (tally.timer ? this.flush(id, tally) : tally.flight?.catch(() => {}))));
  }

  private tallyOf(id: string): Tally {
    let tally = this.tallies.get(id);
    if (!tally) {
      if (this.tallies.size >= MAX_TALLIES) this.forgetEnded();
      tally = { expire: 0, counted: 0, local: false, unsent: 0, sending: 0, flight: null, timer: null };
      this.tallies.set(id, tally);
    }
    return tally;
  }

  private forgetEnded(): void {
    const now = Date.now();
    for (const [id, tally] of this.tallies) {
      if (tally.expire <= now && tally.sending === 0 && !tally.timer) this.tallies.delete(id);
    }
  }

  private async flush(id: string, tally: Tally): Promise<void> {
    tally.timer = null;
    await this.send(id, tally, 0);
  }

  /** Sends the admitted requests not sent yet, plus `own` for the request that asks; answers the new count. */
  private async send(id: string, tally: Tally, own: number): Promise<WindowCount> {
    const now = Date.now();
    // Requests admitted in a window that has ended count for nothing now.
    const carried = tally.expire > now ? tally.unsent : 0;
    tally.unsent = 0;
    clearTimeout(tally.timer ?? undefined);
    tally.timer = null;
    if (carried + own === 0) return { consumed: tally.counted, expire: tally.expire };
    tally.sending += carried;
    const flight = this.query(id, carried + own, now);
    tally.flight = flight;
    try {
      const count = await flight;
      if (tally.local || count.expire > tally.expire) Object.assign(tally, { expire: count.expire, counted: count.consumed, local: false });
      else if (count.expire === tally.expire) tally.counted = Math.max(tally.counted, count.consumed);
      if (this.countingHere) {
        this.countingHere = false;
        this.logger.info({ keyPrefix: this.settings.keyPrefix }, 'rate limit: the database counts again');
      }
      return count;
    } catch (error) {
      return this.countHere(tally, carried + own, now, error);
    } finally {
      tally.sending -= carried;
      if (tally.flight === flight) tally.flight = null;
    }
  }

  /** Counts `points` in this process's own view of the window, which starts over when it has ended. */
  private countHere(tally: Tally, points: number, now: number, error: unknown): WindowCount {
    if (!this.countingHere) {
      this.countingHere = true;
      this.logger.warn(
        { err: error, keyPrefix: this.settings.keyPrefix },
        'rate limit: the database cannot count; counting in this process',
      );
    }
    if (tally.expire <= now) Object.assign(tally, { expire: now + this.settings.windowMs, counted: 0 });
    tally.local = true;
    tally.counted += points;
    return { consumed: tally.counted, expire: tally.expire };
  }

  /** Runs COUNT as a named (prepared) statement, planned once per connection of the pool. */
  private async query(id: string, points: number, now: number): Promise<WindowCount> {
    const { keyPrefix, windowMs, points: budget } = this.settings;
    const connection = await this.db.client.acquireConnection();
    try {
      const result = await connection.query({
        name: 'socialgate:rate-limit:count',
        text: COUNT,
        values: [`${keyPrefix}:${id}`, points, now, now + windowMs, budget],
      });
      const row = result.rows[0] as { points: number; expire: string };
      return { consumed: row.points, expire: Number(row.expire) };
    } finally {
      await this.db.client.releaseConnection(connection);
    }
  }
}

/** Forgets the windows that have ended (a key seen again starts a new one); answers how many went. */
export function purgeEndedWindows(db: Db): Promise<number> {
  return db('rateLimits').where('expire', '<', Date.now()).delete();
}
