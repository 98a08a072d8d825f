import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../../src/db/database.js';
import type { AnyArea } from '../../src/modules/area.js';
import { areas } from '../../src/modules/index.js';

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

/**
 * What is still to be done in an app's database, by kind: each area's work due now or under way (its
 * `outstanding`, `src/modules/<area>/index.ts`, as `<area>.<kind>`) but for the areas `besides`, and the
 * scheduler's jobs. All zero when it is quiescent. One statement, so one snapshot of the database: each step of the
 * work writes its next step before it marks itself done (a processed webhook's events, a dispatched event's
 * deliveries), so nothing falls between counts.
 */
async function outstanding(db: Db, besides: readonly string[]): Promise<Record<string, number>> {
  const counts = [
    ...(areas as readonly AnyArea[])
      .filter((area) => !besides.includes(area.name))
      .flatMap((area) => Object.entries(area.outstanding ?? {}).map(([kind, count]) => `(${count})::int AS "${area.name}.${kind}"`)),
    // Scheduler jobs due now, or locked by a worker running them.
    `(SELECT count(*) FROM agenda_jobs WHERE locked_at IS NOT NULL OR (next_run_at <= now() AND disabled IS NOT TRUE))::int AS "jobs"`,
  ];
  const { rows } = (await db.raw(`SELECT ${counts.join(', ')}`)) as { rows: Array<Record<string, number>> };
  return rows[0]!;
}

/**
 * Waits until nothing in the app's database is undispatched, due or unprocessed: every event fanned out and all
 * the areas' work and the jobs that were due have run. Work planned for later (a retry in a second, a post
 * scheduled for tomorrow) is not waited for, nor the work of the areas `besides` (those whose worker the test
 * stopped). "Nothing more arrived" is asserted after this. What a worker does in memory after it committed an
 * outcome (marking an account that refused a post) is not in the database yet: wait for that state itself.
 */
export async function quiescent(
  app: { services: { db: Db } },
  { timeoutMs = 15_000, besides = [] }: { timeoutMs?: number; besides?: readonly string[] } = {},
): Promise<void> {
  await until(() => outstanding(app.services.db, besides), {
    done: (counts) => Object.values(counts).every((count) => count === 0),
    what: 'the app to be quiescent (nothing undispatched, due or unprocessed)',
    timeoutMs,
  });
}
