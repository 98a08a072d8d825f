import type { Knex } from 'knex';
import type { Logger } from '../../lib/logger.js';
import type { Counter } from './counters.js';
import { periodNameAt } from './period.js';

const SEPARATOR = '\u0000';

/**
 * Counts usage in memory and writes it in batches: `record` is a map increment (it never waits for, or
 * writes to, the database); every `flushMs` the counts gathered since the last flush are added to
 * `usage_counters` with one upsert. A graceful stop flushes what is left. A flush that fails keeps its counts
 * for the next one. A process that dies loses at most what it counted since its last flush (`flushMs` worth),
 * and counts nothing twice: a batch is one statement, committed or not.
 */
export class UsageRecorder {
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Knex,
    private readonly logger: Logger,
    private readonly flushMs: number,
  ) {}

  /** Counts `amount` of `counter` for the owner (and the profile, when the usage is one profile's) now. */
  record(ownerId: string, profileId: string | null, counter: Counter, amount = 1): void {
    if (amount === 0) return;
    const key = ownerId + SEPARATOR + (profileId ?? '') + SEPARATOR + periodNameAt(Date.now()) + SEPARATOR + counter;
    this.pending.set(key, (this.pending.get(key) ?? 0) + amount);
  }

  start(): void {
    this.timer ??= setInterval(() => void this.flush().catch(() => {}), this.flushMs).unref();
  }

  /** Writes what was counted so far; rejects when the write failed (its counts are kept for the next flush). */
  flush(): Promise<void> {
    // After the previous flush, whether it was committed or failed (its counts were kept).
    this.flushing = this.flushing.catch(() => {}).then(() => this.write());
    return this.flushing;
  }

  /** Stops the timer and writes what is left (a graceful stop loses nothing). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    const rows = [...batch].map(([key, value]) => {
      const [ownerId, profileId, period, counter] = key.split(SEPARATOR) as [string, string, string, string];
      return { owner_id: ownerId, profile_id: profileId, period, counter, value };
    });
    try {
      await this.db.raw(
        `
        INSERT INTO usage_counters (owner_id, profile_id, period, counter, value)
        SELECT owner_id, profile_id, period, counter, value
        FROM jsonb_to_recordset(?::jsonb) AS r(owner_id text, profile_id text, period text, counter text, value bigint)
        ON CONFLICT (owner_id, period, counter, profile_id)
        DO UPDATE SET value = usage_counters.value + excluded.value, updated_at = now()`,
        [JSON.stringify(rows)],
      );
    } catch (error) {
      for (const [key, value] of batch) this.pending.set(key, (this.pending.get(key) ?? 0) + value);
      this.logger.warn({ err: error, counts: batch.size }, 'writing usage counts failed; they are kept for the next flush');
      throw error;
    }
  }
}
