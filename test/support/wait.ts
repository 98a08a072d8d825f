import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../../src/db/database.js';

export interface UntilOptions<T> {
  /** When the value read is the one awaited; by default, when it is truthy. */
  done?: (value: T) => boolean;
  /** Named in the message if the time runs out. */
  what?: string;
  timeoutMs?: number;
  /** How long to wait between two reads. */
  intervalMs?: number;
}

/**
 * Reads until the value is the one awaited, and answers it. When the time runs out it fails, naming what was
 * awaited and the last value read. A read that throws fails at once: waiting is for state, not for errors.
 */
export async function until<T>(read: () => T | Promise<T>, options: UntilOptions<T> = {}): Promise<T> {
  const { done = Boolean, what = 'the condition', timeoutMs = 10_000, intervalMs = 50 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() >= deadline) {
      throw new Error(`gave up after ${timeoutMs} ms waiting for ${what}; the last value read was ${describe(value)}`);
    }
    await sleep(intervalMs);
  }
}

function describe(value: unknown): string {
  const text = JSON.stringify(value, (_key, inner: unknown) => (inner instanceof Date ? inner.toISOString() : inner));
  return text === undefined ? String(value) : text.slice(0, 600);
}

/** What is still to be done in an app's database; all zero when it is quiescent. */
export interface Outstanding {
  /** Events in the outbox not yet fanned out to hooks. */
  undispatchedEvents: number;
  /** Deliveries due now, or leased to a worker that is sending them. */
  deliveries: number;
  /** Post targets due now, or leased to a worker that is publishing them. */
  postTargets: number;
  /** Platform webhooks stored and due now (not processed nor given up), or leased to a worker processing them. */
  platformWebhooks: number;
  /** Scheduler jobs due now, or locked by a worker running them. */
  jobs: number;
}

/**
 * One statement, so one snapshot of the database: each step of the work writes its next step before it marks
 * itself done (a processed webhook's events, a dispatched event's deliveries), so nothing falls between counts.
 */
const OUTSTANDING = `
  SELECT
    (SELECT count(*) FROM events WHERE dispatched_at IS NULL)::int AS "undispatchedEvents",
    (SELECT count(*) FROM deliveries WHERE status IN ('pending', 'retrying')
      AND (next_attempt_at <= now() OR locked_until > now()))::int AS "deliveries",
    (SELECT count(*) FROM post_targets WHERE status IN ('scheduled', 'processing')
      AND (due_at <= now() OR locked_until > now()))::int AS "postTargets",
    (SELECT count(*) FROM platform_webhooks WHERE processed_at IS NULL AND failed_at IS NULL
      AND (next_attempt_at <= now() OR locked_until > now()))::int AS "platformWebhooks",
    (SELECT count(*) FROM agenda_jobs WHERE locked_at IS NOT NULL
      OR (next_run_at <= now() AND disabled IS NOT TRUE))::int AS "jobs"`;

async function outstanding(db: Db): Promise<Outstanding> {
  const { rows } = (await db.raw(OUTSTANDING)) as { rows: Outstanding[] };
  return rows[0]!;
}

/**
 * Waits until nothing in the app's database is undispatched, due or unprocessed: every event fanned out and every
 * delivery, post target, platform webhook and job that was due has run. Work planned for later (a retry in a
 * second, a post scheduled for tomorrow) is not waited for. "Nothing more arrived" is asserted after this.
 * What a worker does in memory after it committed an outcome (marking an account that refused a post) is not in
 * the database yet: wait for that state itself.
 */
export async function quiescent(app: { services: { db: Db } }, timeoutMs = 15_000): Promise<void> {
  await until(() => outstanding(app.services.db), {
    done: (counts) => Object.values(counts).every((count) => count === 0),
    what: 'the app to be quiescent (nothing undispatched, due or unprocessed)',
    timeoutMs,
  });
}
