import { type ClaimLoop, type LeasedWork, type LeaseWorkerSettings } from '../../lib/lease-worker.js';
import type { Services } from '../../services.js';
import { type AttemptContext, attemptTarget, loadContext, type Outcome } from './attempt.js';
import { type Claimed, claimDue, markAttemptsStarted, renewLeases } from './claim.js';
import { failure } from './failures.js';
import { type Finished, outcomeRecorder } from './record.js';
import { Batcher } from '../../lib/batcher.js';
import { POSTS_CHANNEL } from './wake.js';

/** Due targets are looked for at least this often, NOTIFY or not: retries coming due, a lost wake-up. */
const POLL_MS = 1000;
const CLAIM_BATCH = 50;
const CLAIM_LOOPS = 3;

/** A claimed target, with what its batch read for the attempt. */
interface Leased {
  claimed: Claimed;
  context: AttemptContext;
}

/**
 * Publishes due targets, draining `post_targets` as the webhook worker drains deliveries: claims due targets
 * under a lease (SKIP LOCKED, so any number of workers share the table), publishes up to `concurrency` at once,
 * and records outcomes in batches. It wakes on NOTIFY (a post published at once, a retry, Agenda's wake-up at
 * a due time) and polls every second. Each attempt is marked just before its call; a worker that dies mid-call
 * leaves that mark: when its lease runs out (it is renewed while the worker lives, so within
 * `PUBLISH_LEASE_SECONDS` of its death), the next claim reconciles it with the platform before anything is sent
 * again. A target it had claimed but not called for is simply sent.
 */
export class TargetPublishing implements LeasedWork<Leased, Outcome> {
  readonly settings: LeaseWorkerSettings;
  private readonly recorder: Batcher<Finished>;
  /** Marks of attempts about to start, committed in batches: the calls that wait meanwhile go out together. */
  private readonly marks: Batcher<Claimed>;

  constructor(private readonly services: Services) {
    // A claim is a few round trips and a commit: claims in parallel keep the platform calls fed while one of them
    // waits for the database.
    const { concurrency, leaseSeconds } = services.config.publishing;
    this.settings = {
      name: 'socialgate-publisher',
      channels: [POSTS_CHANNEL],
      concurrency,
      pollMs: POLL_MS,
      loops: CLAIM_LOOPS,
      leaseSeconds,
    };
    this.recorder = outcomeRecorder(services);
    this.marks = new Batcher(
      (batch) =>
        markAttemptsStarted(
          services.db,
          batch.map((claimed) => claimed.target),
        ),
      CLAIM_BATCH,
    );
  }

  async turn(loop: ClaimLoop<Leased>): Promise<void> {
    const { concurrency, leaseSeconds } = this.services.config.publishing;
    const room = loop.room;
    // While busy, claim in batches (a quarter of the slots, or a full claim): one claim per freed slot would make
    // the claim's transaction, not the platforms, the limit.
    if (room <= 0 || (room < Math.min(CLAIM_BATCH, Math.max(1, concurrency >> 2)) && loop.busy > 0)) return loop.sleep(POLL_MS, true);
    // Small claims: the first calls start sooner, and a full claim loops at once for the next.
    const batch = Math.min(room, CLAIM_BATCH);
    const taken = await loop.claim(batch, async (n) => {
      const claim = await claimDue(this.services.db, n, leaseSeconds);
      if (claim.claimed.length === 0) return [];
      const context = await loadContext(this.services, claim);
      return claim.claimed.map((claimed) => ({ claimed, context }));
    });
    // Fewer than asked for: nothing more is due now; sleep until the next due time, a NOTIFY or the poll.
    if (taken < batch) await loop.sleep(await this.untilNextDue());
  }

  process(leased: Leased): Promise<Outcome> {
    return attemptTarget(this.services, leased.context, leased.claimed, (claimed) => this.marks.add(claimed)).catch(
      (error: unknown): Outcome => {
        // A bug, not a platform's answer: the target fails visibly rather than being retried forever.
        this.services.logger.error({ err: error, ...this.describe(leased) }, 'publishing a target failed unexpectedly');
        return { kind: 'failed', failure: failure('unknown', 'Publishing failed inside the service; report it with the post id.') };
      },
    );
  }

  record({ claimed }: Leased, outcome: Outcome): Promise<void> {
    return this.recorder.add({ claimed, outcome });
  }

  renew(held: Leased[]): Promise<void> {
    return renewLeases(
      this.services.db,
      held.map((leased) => leased.claimed.target),
      this.services.config.publishing.leaseSeconds,
    );
  }

  describe({ claimed: { target } }: Leased): Record<string, unknown> {
    return { postId: target.postId, accountId: target.accountId };
  }

  /**
   * How long until the soonest target comes due (at most the poll). Agenda's wake-up reaches a worker through
   * its job lock, ~100 ms late here; this timer makes a running worker start on the millisecond.
   */
  private async untilNextDue(): Promise<number> {
    const row = (await this.services
      .db('postTargets')
      .whereIn('status', ['scheduled', 'processing'])
      .where('dueAt', '>', this.services.db.fn.now())
      .min({ at: 'dueAt' })
      .first()) as { at: Date | null } | undefined;
    return row?.at ? Math.max(0, Math.min(POLL_MS, new Date(row.at).getTime() - Date.now())) : POLL_MS;
  }
}
