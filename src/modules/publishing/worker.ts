import pg from 'pg';
import type { Services } from '../../services.js';
import { attemptTarget, loadContext, type Outcome } from './attempt.js';
import { type Claimed, claimDue } from './claim.js';
import { failure } from './failures.js';
import { OutcomeRecorder } from './record.js';
import { POSTS_CHANNEL } from './wake.js';

/** Due targets are looked for at least this often, NOTIFY or not: retries coming due, a lost wake-up. */
const POLL_MS = 1000;

/**
 * Publishes due targets, draining `post_targets` as the webhook worker drains deliveries: claims due targets
 * under a lease (SKIP LOCKED, so any number of workers share the table), publishes up to `concurrency` at once,
 * and records outcomes in batches. It wakes on NOTIFY (a post published at once, a retry, Agenda's wake-up at
 * a due time) and polls every second. A worker that dies mid-call leaves its attempt marked as started: when
 * the lease runs out, the next claim reconciles it with the platform before anything is sent again.
 */
export class PublishWorker {
  private readonly recorder: OutcomeRecorder;
  private listener: pg.Client | undefined;
  private running = false;
  private abandoned = false;
  private readonly inFlight = new Set<Promise<void>>();
  private signalled = true;
  private wake: (() => void) | undefined;
  private slotFreed: (() => void) | undefined;
  private loopDone: Promise<void> | undefined;

  constructor(private readonly services: Services, private readonly databaseUrl: string) {
    this.recorder = new OutcomeRecorder(services);
  }

  async start(): Promise<void> {
    this.listener = new pg.Client({ connectionString: this.databaseUrl, application_name: 'socialgate-publisher' });
    await this.listener.connect();
    this.listener.on('notification', () => this.signal());
    this.listener.on('error', (error) => this.services.logger.warn({ err: error }, 'publishing listener lost'));
    await this.listener.query(`LISTEN ${POSTS_CHANNEL}`);
    this.running = true;
    this.loopDone = this.loop();
  }

  /** Stops claiming, waits for the publications in flight (bounded by the platforms' timeout) and their records. */
  async stop(): Promise<void> {
    if (this.abandoned) return;
    this.running = false;
    this.signal();
    await this.loopDone;
    await Promise.allSettled([...this.inFlight]);
    await this.listener?.end().catch(() => {});
  }

  /** Stops at once, recording nothing more: what a killed process leaves behind (for tests of that case). */
  async abandon(): Promise<void> {
    this.running = false;
    this.abandoned = true;
    this.recorder.drop();
    this.signal();
    await this.listener?.end().catch(() => {});
  }

  private signal(): void {
    this.signalled = true;
    this.wake?.();
  }

  private async loop(): Promise<void> {
    const { concurrency, leaseSeconds } = this.services.config.publishing;
    while (this.running) {
      try {
        this.signalled = false;
        const room = concurrency - this.inFlight.size;
        if (room <= 0) {
          await this.sleep(POLL_MS, true);
          continue;
        }
        const claimed = await claimDue(this.services.db, room, leaseSeconds);
        if (claimed.length > 0) await this.send(claimed);
        // Fewer than asked for: nothing more is due now; sleep until a NOTIFY or the poll.
        if (claimed.length < room) await this.sleep(POLL_MS, false);
      } catch (error) {
        this.services.logger.error({ err: error }, 'publishing loop failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    }
  }

  /** Until a NOTIFY, `ms`, or (when waiting for room) a publication finishing. */
  private sleep(ms: number, untilSlotFreed: boolean): Promise<void> {
    if (this.signalled || !this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        this.slotFreed = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
      if (untilSlotFreed) this.slotFreed = done;
    });
  }

  private async send(claimed: Claimed[]): Promise<void> {
    const context = await loadContext(this.services, claimed);
    for (const item of claimed) {
      const task = attemptTarget(this.services, context, item)
        .catch((error: unknown): Outcome => {
          // A bug, not a platform's answer: the target fails visibly rather than being retried forever.
          this.services.logger.error({ err: error, postId: item.target.postId, accountId: item.target.accountId }, 'publishing a target failed unexpectedly');
          return { kind: 'failed', failure: failure('unknown', 'Publishing failed inside the service; report it with the post id.') };
        })
        .then((outcome) => (this.abandoned ? undefined : this.recorder.record({ claimed: item, outcome })))
        .catch((error: unknown) => this.services.logger.error({ err: error, postId: item.target.postId }, 'recording a publication failed'))
        .finally(() => {
          this.inFlight.delete(task);
          this.slotFreed?.();
        });
      this.inFlight.add(task);
    }
  }
}
