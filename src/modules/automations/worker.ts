import type { Batcher } from '../../lib/batcher.js';
import { type ClaimLoop, type LeasedWork, type LeaseWorkerSettings, claimInBatches } from '../../lib/lease-worker.js';
import type { Services } from '../../services.js';
import { perform } from './actions.js';
import type { Performed } from './performer.js';
import { AUTOMATIONS_CHANNEL, automationCache } from './cache.js';
import { RUNS_CHANNEL } from './engine.js';
import { type FinishedRun, runFinisher } from './finish.js';
import { runHandoff } from './handoff.js';
import type { ActionOutcome, RunRecord } from './rows.js';

/** Open runs are looked for at least this often, NOTIFY or not: leases run out, a lost wake-up. */
const POLL_MS = 1000;
const CLAIM_BATCH = 50;
/** Times a run is taken up at most while the platform throttles one of its actions; then the action fails. */
const MAX_ATTEMPTS = 5;

/** A run that waits for the platform to lift its limit: taken up again then, its actions not done yet. */
interface Postponed {
  until: Date;
}

type Result = ActionOutcome[] | Postponed;

/**
 * Performs automation runs, draining `automation_runs` under a lease as the webhook worker drains deliveries:
 * claims open runs (SKIP LOCKED, so any number of workers share the table), performs each run's actions in
 * order and records each action's outcome on the run as it completes, but the last: that one is stored by the
 * finish (the run's status, its automation's counts and `automation.triggered`), which ends many runs in one
 * statement. A worker that dies mid-run leaves the outcomes it recorded; when its lease runs out another worker
 * goes on with the actions not done yet, the last one again if it died before the finish (see `process`). It
 * also keeps this process's automation cache honest: it listens for changes to automations, and the cache is used
 * only while it does.
 */
export class RunPerforming implements LeasedWork<RunRecord, Result> {
  readonly settings: LeaseWorkerSettings;
  /** Set once the worker's connections are gone: a run in flight stops before its next action. */
  private closed = false;
  /** The claim loop, from the first turn. */
  private loop: ClaimLoop<RunRecord> | undefined;
  private readonly finisher: Batcher<FinishedRun>;

  constructor(private readonly services: Services) {
    const { concurrency, leaseSeconds } = services.config.automations;
    this.settings = {
      name: 'socialgate-automations',
      channels: [RUNS_CHANNEL, AUTOMATIONS_CHANNEL],
      concurrency,
      pollMs: POLL_MS,
      loops: 1,
      leaseSeconds,
    };
    this.finisher = runFinisher(services.db, services.logger);
  }

  heard(channel: string | null): void {
    // Connected again (null): changes may have been missed. Either way the cache starts afresh.
    if (channel === null) automationCache(this.services).setListening(true);
    else if (channel === AUTOMATIONS_CHANNEL) automationCache(this.services).invalidate();
  }

  turn(loop: ClaimLoop<RunRecord>): Promise<void> {
    // Runs the intake starts in this process are handed to this loop as they commit (./handoff.ts).
    this.loop = loop;
    runHandoff(this.services).attach(loop);
    return claimInBatches(loop, CLAIM_BATCH, POLL_MS, (n) => this.claim(n));
  }

  /**
   * Performs the actions not done yet, recording each outcome on the run as soon as it is known, but the last:
   * the finish stores that one with the run's status. A worker that dies between the two leaves the last action
   * to be performed again by the next, which is safe for every action: a platform write (reply, private reply,
   * comment reply, hide) goes through the platform-write ledger under the action's own key, which answers a
   * write already done with its result instead of calling the platform again, and `add_tag` adding a tag the
   * conversation has changes nothing. An action the platform throttles postpones the run until the platform's
   * limit lifts (the ledger lets the same key be sent again: nothing was), MAX_ATTEMPTS times at most.
   */
  async process(run: RunRecord): Promise<Result> {
    const outcomes = [...run.outcomes];
    for (let index = outcomes.length; index < run.actions.length; index += 1) {
      this.assertAlive(run);
      const performed = await perform(this.services, run, index).catch((error: unknown): Performed => {
        this.services.logger.error({ err: error, runId: run.id, index }, 'an automation action failed unexpectedly');
        return {
          status: 'failed',
          error: { code: 'internal_error', message: 'The action failed inside the service.', platformError: null },
        };
      });
      this.assertAlive(run);
      if (performed.status === 'throttled' && run.attempts < MAX_ATTEMPTS) return { until: performed.until };
      const done = performed.status === 'throttled' ? performed.failure : performed;
      const outcome: ActionOutcome = { ...done, finishedAt: new Date().toISOString() };
      if (index < run.actions.length - 1) await this.recordOutcome(run, index, outcome);
      outcomes.push(outcome);
    }
    return outcomes;
  }

  /** Finishes the run with the others ending about now, in one statement (see `runFinisher`), or postpones it. */
  async record(run: RunRecord, result: Result): Promise<void> {
    if (Array.isArray(result)) return this.finisher.add({ run, outcomes: result });
    await this.services.db('automationRuns').where({ id: run.id, status: 'running' }).update({ lockedUntil: result.until });
  }

  async renew(held: RunRecord[]): Promise<void> {
    await this.services
      .db('automationRuns')
      .whereIn(
        'id',
        held.map((run) => run.id),
      )
      .where({ status: 'running' })
      .update({ lockedUntil: this.services.db.raw('now() + make_interval(secs => ?)', [this.settings.leaseSeconds]) });
  }

  describe(run: RunRecord): Record<string, unknown> {
    return { runId: run.id, automationId: run.automationId };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.loop) runHandoff(this.services).detach(this.loop);
    automationCache(this.services).setListening(false);
  }

  /** A worker whose connections are gone is a dead process: it records nothing more, its lease runs out. */
  private assertAlive(run: RunRecord): void {
    if (this.closed) throw new Error(`the automation worker stopped in the middle of run ${run.id}`);
  }

  /** Appends action `index`'s outcome to the run, unless another worker that took the run over has recorded it. */
  private async recordOutcome(run: RunRecord, index: number, outcome: ActionOutcome): Promise<void> {
    await this.services
      .db('automationRuns')
      .where({ id: run.id })
      .whereRaw('jsonb_array_length(outcomes) = ?', [index])
      .update({ outcomes: this.services.db.raw('outcomes || ?::jsonb', [JSON.stringify([outcome])]) });
  }

  /** Leases up to `room` open runs, oldest first. */
  private async claim(room: number): Promise<RunRecord[]> {
    const { db } = this.services;
    const due = db('automationRuns')
      .select('id')
      .where({ status: 'running' })
      .where((open) => open.whereNull('lockedUntil').orWhere('lockedUntil', '<', db.fn.now()))
      .orderBy('createdAt')
      .limit(room)
      .forUpdate()
      .skipLocked();
    return (await db('automationRuns')
      .whereIn('id', due)
      .update({
        lockedUntil: db.raw('now() + make_interval(secs => ?)', [this.settings.leaseSeconds]),
        attempts: db.raw('attempts + 1'),
      })
      .returning('*')) as RunRecord[];
  }
}
