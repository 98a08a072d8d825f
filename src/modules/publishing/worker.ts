import { NotificationListener } from '../../lib/listener.js';
import type { Services } from '../../services.js';
import { attemptTarget, loadContext, type Outcome } from './attempt.js';
import { type Claimed, claimDue } from './claim.js';
import { failure } from './failures.js';
import { type Finished, outcomeRecorder } from './record.js';
import type { BatchWriter } from '../../lib/batch-writer.js';
import { POSTS_CHANNEL } from './wake.js';

/** Due targets are looked for at least this often, NOTIFY or not: retries coming due, a lost wake-up. */
const POLL_MS = 1000;
const CLAIM_BATCH = 50;
const CLAIM_LOOPS = 3;

/**
 * Publishes due targets, draining `post_targets` as the webhook worker drains deliveries: claims due targets
 * under a lease (SKIP LOCKED, so any number of workers share the table), publishes up to `concurrency` at once,
 * and records outcomes in batches. It wakes on NOTIFY (a post published at once, a retry, Agenda's wake-up at
 * a due time) and polls every second. A worker that dies mid-call leaves its attempt marked as started: when
 * the lease runs out, the next claim reconciles it with the platform before anything is sent again.
 */
export class PublishWorker {
  private readonly recorder: BatchWriter<Finished>;
  private listener: NotificationListener | undefined;
  private running = false;
  private abandoned = false;
  /** Platform calls under way (the concurrency limit counts these). */
  private readonly inFlight = new Set<Promise<void>>();
  /** Outcomes not committed yet. */
  private readonly recording = new Set<Promise<void>>();
  private signalled = true;
  /** Loops asleep: woken by a NOTIFY, or (`slot`) by a platform call ending. */
  private readonly sleepers = new Set<{ done: () => void; slot: boolean }>();
  private loopDone: Promise<void> | undefined;

  constructor(private readonly services: Services, private readonly databaseUrl: string) {
    this.recorder = outcomeRecorder(services);
  }

  async start(): Promise<void> {
    this.listener = new NotificationListener(this.databaseUrl, [POSTS_CHANNEL], () => this.signal(), this.services.logger, 'socialgate-publisher');
    await this.listener.start();
    this.running = true;
    // A claim is a few round trips and a commit: claims in parallel (SKIP LOCKED keeps them apart) keep the
    // platform calls fed while one of them waits for the database.
    this.loopDone = Promise.all(Array.from({ length: CLAIM_LOOPS }, () => this.loop())).then(() => undefined);
  }

  /** Stops claiming, waits for the publications in flight (bounded by the platforms' timeout) and their records. */
  async stop(): Promise<void> {
    if (this.abandoned) return;
    this.running = false;
    this.signal();
    await this.loopDone;
    await Promise.allSettled([...this.inFlight]);
    await Promise.allSettled([...this.recording]);
    await this.listener?.stop();
  }

  /** Stops at once, recording nothing more: what a killed process leaves behind (for tests of that case). */
  async abandon(): Promise<void> {
    this.running = false;
    this.abandoned = true;
    this.recorder.drop();
    this.signal();
    await this.listener?.stop();
  }

  private signal(): void {
    this.signalled = true;
    for (const sleeper of [...this.sleepers]) sleeper.done();
  }

  private async loop(): Promise<void> {
    const { concurrency, leaseSeconds } = this.services.config.publishing;
    while (this.running) {
      try {
        this.signalled = false;
        const room = concurrency - this.inFlight.size;
        // While busy, claim in batches (a quarter of the slots, or a full claim): one claim per freed slot would make
        // the claim's transaction, not the platforms, the limit.
        if (room <= 0 || (room < Math.min(CLAIM_BATCH, Math.max(1, concurrency >> 2)) && this.inFlight.size > 0)) {
          await this.sleep(POLL_MS, true);
          continue;
        }
        // Small claims: the first calls start sooner, and a full claim loops at once for the next.
        const batch = Math.min(room, CLAIM_BATCH);
        const claimed = await claimDue(this.services.db, batch, leaseSeconds);
        if (claimed.length > 0) await this.send(claimed);
        // Fewer than asked for: nothing more is due now; sleep until the next due time, a NOTIFY or the poll.
        if (claimed.length < batch) await this.sleep(await this.untilNextDue(), false);
      } catch (error) {
        this.services.logger.error({ err: error }, 'publishing loop failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    }
  }

  /**
   * How long until the soonest target comes due (at most the poll). Agenda's wake-up reaches a worker through
   * its job lock, ~100 ms late here; this timer makes a running worker start on the millisecond.
   */
  private async untilNextDue(): Promise<number> {
    const row = await this.services.db('postTargets').whereIn('status', ['scheduled', 'processing'])
      .where('dueAt', '>', this.services.db.fn.now()).min({ at: 'dueAt' }).first() as { at: Date | null } | undefined;
    return row?.at ? Math.max(0, Math.min(POLL_MS, new Date(row.at).getTime() - Date.now())) : POLL_MS;
  }

  /** Until a NOTIFY, `ms`, or (when waiting for room) a platform call ending. */
  private sleep(ms: number, untilSlotFreed: boolean): Promise<void> {
    if (this.signalled || !this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const sleeper = {
        slot: untilSlotFreed,
        done: () => {
          clearTimeout(timer);
          this.sleepers.delete(sleeper);
          resolve();
        },
      };
      const timer = setTimeout(sleeper.done, ms);
      this.sleepers.add(sleeper);
    });
  }

  /**
   * Publishes claimed targets, up to `concurrency` platform calls at once. A slot is free again when the platform
   * has answered; the outcome is recorded in the background (in batches), and stop() waits for those records too.
   */
  private async send(claimed: Claimed[]): Promise<void> {
    const context = await loadContext(this.services, claimed);
    for (const item of claimed) {
      const call = attemptTarget(this.services, context, item)
        .catch((error: unknown): Outcome => {
          // A bug, not a platform's answer: the target fails visibly rather than being retried forever.
          this.services.logger.error({ err: error, postId: item.target.postId, accountId: item.target.accountId }, 'publishing a target failed unexpectedly');
          return { kind: 'failed', failure: failure('unknown', 'Publishing failed inside the service; report it with the post id.') };
        });
      const calling = call.then(() => undefined).finally(() => {
        this.inFlight.delete(calling);
        for (const sleeper of [...this.sleepers]) if (sleeper.slot) sleeper.done();
      });
      this.inFlight.add(calling);
      const recording: Promise<void> = call
        .then((outcome) => (this.abandoned ? undefined : this.recorder.add({ claimed: item, outcome })))
        .catch((error: unknown) => this.services.logger.error({ err: error, postId: item.target.postId }, 'recording a publication failed'))
        .finally(() => this.recording.delete(recording));
      this.recording.add(recording);
    }
  }
}
