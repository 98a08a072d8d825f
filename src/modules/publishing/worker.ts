import { type ClaimLoop, type LeasedWork, type LeaseWorkerSettings } from '../../lib/lease-worker.js';
import type { Services } from '../../services.js';
import { AheadQueue, type Waiting } from './ahead.js';
import {
  type AttemptContext,
  attemptTarget,
  loadContext,
  type Outcome,
  prepareAttempt,
  type Prepared,
  publishesAtOnce,
} from './attempt.js';
import { claimAhead, type Claimed, claimDue, holdAhead, leaseOf, markAttemptsStarted, renewLeases, startAhead } from './claim.js';
import { failure } from './failures.js';
import { type Finished, outcomeRecorder } from './record.js';
import { Batcher } from '../../lib/batcher.js';
import { POSTS_CHANNEL } from './wake.js';

/** Due targets are looked for at least this often, NOTIFY or not: retries coming due, a lost wake-up. */
const POLL_MS = 1000;
const CLAIM_BATCH = 50;
const CLAIM_LOOPS = 3;
/** Targets leased ahead per claim: a burst due in one second is leased in a few claims while the machine idles. */
const AHEAD_BATCH = 500;
/** A start that found targets not due yet by the database's clock tries them again this much later. */
const EARLY_RETRY_MS = 20;

/** A claimed target, with its attempt prepared; `marked`: the statement that started it marked the attempt. */
interface Leased {
  claimed: Claimed;
  prepared: Prepared;
  marked: boolean;
}

/**
 * Publishes due targets, draining `post_targets` as the webhook worker drains deliveries: claims due targets
 * under a lease (SKIP LOCKED, so any number of workers share the table), publishes up to `concurrency` at once,
 * and records outcomes in batches. It wakes on NOTIFY (a post published at once, a retry, Agenda's wake-up at
 * a due time) and polls every second. Each attempt is marked just before its call; a worker that dies mid-call
 * leaves that mark: when its lease runs out (it is renewed while the worker lives, so within
 * `PUBLISH_LEASE_SECONDS` of its death), the next claim reconciles it with the platform before anything is sent
 * again. A target it had claimed but not called for is simply sent.
 *
 * Look-ahead: what a scheduled target's attempt needs that does not wait for its due time is done before it, so
 * that at the due time only the start, the calls and the settlement remain.
 * - Every second (at once after a full claim), scheduled targets due within `PUBLISH_LOOKAHEAD_SECONDS` are leased
 *   ahead, up to `PUBLISH_LOOKAHEAD_TARGETS` held at once (`claimAhead`): `locked_until` until `leaseSeconds` after
 *   the due time and a token of the claim, nothing else changed (no status, no event). Their accounts and media are
 *   read, credentials opened, content gathered (`prepareAttempt`) and `post.processing` built; the worker holds them
 *   in memory, soonest due first (`AheadQueue`), slots free or not.
 * - At the due time, as slots free, one statement per batch starts them (`startAhead`): the targets still under
 *   the token, scheduled and due by the database's clock move to processing with their attempts marked (committed
 *   before any call), their posts to processing with `post.processing`. Those it does not start were edited (PATCH
 *   writes a post's targets anew under the same keys: no token), moved in time (token cleared), cancelled or
 *   deleted since: their change wins, and the worker drops them. Per batch after the due time, that is one round
 *   trip where the due-now claim below takes nine (the claim's transaction, two reads, the marks).
 * - A lease held past the due time (no free slot) is renewed by the turns; a worker that dies holding
 *   leases ahead leaves them to another once they run out, `leaseSeconds` after their due time at the latest; one
 *   that stops cleanly gives them back (`release`).
 * Targets due now and not leased ahead (a post published at once, a retry, a reconcile, a post edited in its last
 * second) are claimed as before (`claimDue`), each attempt marked just before its call.
 */
export class TargetPublishing implements LeasedWork<Leased, Outcome> {
  readonly settings: LeaseWorkerSettings;
  private readonly recorder: Batcher<Finished>;
  /** Marks of attempts about to start, committed in batches: the calls that wait meanwhile go out together. */
  private readonly marks: Batcher<Claimed>;
  private readonly ahead = new AheadQueue();
  /** A look-ahead claim is under way (one at a time: side by side they would only split the same targets). */
  private lookingAhead = false;
  /** When to lease ahead again (ms). */
  private nextLookAhead = 0;
  /** When to renew the leases held ahead again (ms). */
  private nextAheadRenewal = 0;

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
    const { concurrency, leaseSeconds, lookaheadTargets } = this.services.config.publishing;
    if (Date.now() >= this.nextAheadRenewal) await this.renewAhead();
    const room = loop.room;
    // While busy, claim in batches (a quarter of the slots, or a full claim): one claim per freed slot would make
    // the claim's transaction, not the platforms, the limit.
    const batch =
      room <= 0 || (room < Math.min(CLAIM_BATCH, Math.max(1, concurrency >> 2)) && loop.busy > 0) ? 0 : Math.min(room, CLAIM_BATCH);
    if (batch > 0 && this.ahead.due() > 0) {
      await loop.claim(batch, (n) => this.startDue(n));
      return;
    }
    if (this.untilLookAhead() === 0) {
      await this.lookAhead(Math.min(AHEAD_BATCH, lookaheadTargets - this.ahead.size));
      return;
    }
    if (batch === 0) return loop.sleep(POLL_MS, true);
    // Small claims: the first calls start sooner, and a full claim loops at once for the next.
    const taken = await loop.claim(batch, async (n) => {
      const claim = await claimDue(this.services.db, n, leaseSeconds);
      if (claim.claimed.length === 0) return [];
      const context = await loadContext(this.services, claim);
      return claim.claimed.map((claimed) => ({ claimed, prepared: this.prepare(context, claimed), marked: false }));
    });
    // Fewer than asked for: nothing more is due now; sleep until the next due time, a NOTIFY or the poll.
    if (taken < batch) {
      const untilNextDue = await this.untilNextDue();
      await loop.sleep(Math.min(untilNextDue, this.ahead.untilNext(), this.untilLookAhead()));
    }
  }

  process(leased: Leased): Promise<Outcome> {
    const markStarted = leased.marked ? () => Promise.resolve() : (claimed: Claimed) => this.marks.add(claimed);
    return attemptTarget(this.services, leased.prepared, leased.claimed, markStarted).catch((error: unknown) =>
      this.unexpected(error, leased.claimed),
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

  /** A clean stop gives back the targets held ahead (there is no backlog): another worker need not wait for their leases to run out. */
  release(): Promise<void> {
    return holdAhead(this.services.db, this.ahead.takeAll(), 'release');
  }

  describe({ claimed: { target } }: Leased): Record<string, unknown> {
    return { postId: target.postId, accountId: target.accountId };
  }

  /**
   * Renews, a few times per lease, the leases held ahead that would run out within half a lease: those past their
   * due time still waiting for a slot. The turns do it, so a worker that stops turning (dies) stops renewing them.
   */
  private async renewAhead(): Promise<void> {
    const { leaseSeconds } = this.services.config.publishing;
    this.nextAheadRenewal = Date.now() + (leaseSeconds * 1000) / 4;
    const expiring = this.ahead.expiringWithin((leaseSeconds * 1000) / 2);
    await holdAhead(this.services.db, expiring, { leaseSeconds });
    for (const item of expiring) item.lockedUntil = new Date(Date.now() + leaseSeconds * 1000);
  }

  /**
   * Milliseconds until this worker looks ahead again (0: now). Infinity when it does not: look-ahead off, as many
   * held as it may hold (it waits for one of them to start), or a look-ahead under way in another claim loop.
   */
  private untilLookAhead(): number {
    const { lookaheadSeconds, lookaheadTargets } = this.services.config.publishing;
    if (lookaheadSeconds === 0 || this.ahead.size >= lookaheadTargets || this.lookingAhead) return Infinity;
    return Math.max(0, this.nextLookAhead - Date.now());
  }

  /** Leases up to `n` targets due soon ahead and prepares their attempts; a full claim looks again at once. */
  private async lookAhead(n: number): Promise<void> {
    const { lookaheadSeconds, leaseSeconds } = this.services.config.publishing;
    this.lookingAhead = true;
    try {
      const { claim, ahead } = await claimAhead(this.services.db, n, lookaheadSeconds, leaseSeconds);
      this.nextLookAhead = ahead.length < n ? Date.now() + POLL_MS : 0;
      if (ahead.length === 0) return;
      const context = await loadContext(this.services, claim);
      this.ahead.add(
        ahead.map((leased) => ({
          ...leased,
          prepared: this.prepare(context, leased.claimed),
          startAt: new Date(leased.claimed.target.dueAt!).getTime(),
        })),
      );
    } finally {
      this.lookingAhead = false;
    }
  }

  /** Starts up to `n` targets held ahead and due now; answers those started. */
  private async startDue(n: number): Promise<Leased[]> {
    const due = this.ahead.takeDue(n);
    const batch = due.map((leased) => ({ leased, marked: publishesAtOnce(leased.prepared, leased.claimed) }));
    let answer: Awaited<ReturnType<typeof startAhead>>;
    try {
      answer = await startAhead(this.services.db, batch, this.services.config.publishing.leaseSeconds);
    } catch (error) {
      // Nothing was started (or, with the answer lost, what was is reconciled once its lease runs out).
      this.ahead.add(due);
      throw error;
    }
    const early: Waiting[] = [];
    const started: Leased[] = [];
    for (const { leased, marked } of batch) {
      const lease = leaseOf(leased.claimed.target, leased.token);
      if (answer.early.has(lease)) early.push({ ...leased, startAt: Date.now() + EARLY_RETRY_MS });
      else if (answer.started.has(lease)) started.push({ claimed: leased.claimed, prepared: leased.prepared, marked });
    }
    this.ahead.add(early);
    return started;
  }

  private prepare(context: AttemptContext, claimed: Claimed): Prepared {
    try {
      return prepareAttempt(this.services, context, claimed.target);
    } catch (error) {
      return { outcome: this.unexpected(error, claimed) };
    }
  }

  /** A bug, not a platform's answer: the target fails visibly rather than being retried forever. */
  private unexpected(error: unknown, { target }: Claimed): Outcome {
    this.services.logger.error(
      { err: error, postId: target.postId, accountId: target.accountId },
      'publishing a target failed unexpectedly',
    );
    return { kind: 'failed', failure: failure('unknown', 'Publishing failed inside the service; report it with the post id.') };
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
