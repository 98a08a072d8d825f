import type { Knex } from 'knex';
import type { components } from '../../../generated/api.js';
import { Batcher } from '../../lib/batcher.js';
import type { Logger } from '../../lib/logger.js';
import type { PlatformId } from '../../platforms/types.js';
import { emittedWith, type NewEvent } from '../events/emit.js';
import type { ActionOutcome, RunRecord } from './rows.js';

type TriggeredAction = components['schemas']['AutomationTriggeredData']['actions'][number];

/** A run whose every action is done, with every action's outcome (the last one not yet stored). */
export interface FinishedRun {
  run: RunRecord;
  outcomes: ActionOutcome[];
}

/** Runs finished in one statement at most. */
const FINISH_BATCH = 100;

function eventAction(run: RunRecord, outcome: ActionOutcome, index: number): TriggeredAction {
  return {
    type: run.actions[index]!.type,
    status: outcome.status,
    error: outcome.status === 'failed' && outcome.error ? `${outcome.error.code}: ${outcome.error.message}`.slice(0, 2000) : null,
  };
}

function triggered({ run, outcomes }: FinishedRun): NewEvent<'automation.triggered'> {
  const message = run.sourceKind === 'message';
  return {
    ownerId: run.ownerId,
    profileId: run.profileId,
    name: 'automation.triggered',
    data: {
      automationId: run.automationId,
      runId: run.id,
      accountId: run.accountId,
      platform: run.platform as PlatformId,
      trigger: run.triggerType,
      from: run.personId,
      fromName: run.personName,
      text: run.text,
      matchedKeyword: run.matchedKeyword,
      convId: message ? run.conversationId : null,
      msgId: message ? run.sourceId : null,
      commentId: message ? null : run.sourceId,
      platformPostId: run.platformPostId,
      actions: outcomes.map((outcome, index) => eventAction(run, outcome, index)),
    },
  };
}

/**
 * Finishes runs in one statement: each run's status and outcomes, each automation's counts raised once by its runs
 * that finished, and their `automation.triggered`. Only a run still running is finished: one another worker took
 * over and finished is skipped, neither counted nor emitted again.
 */
export async function finishRuns(db: Knex | Knex.Transaction, finished: FinishedRun[]): Promise<void> {
  const byId = new Map(finished.map((one) => [one.run.id, one]));
  const rows = [...byId.values()].map(({ run, outcomes }) => ({
    id: run.id,
    status: outcomes.some((outcome) => outcome.status === 'failed') ? 'failed' : 'succeeded',
    outcomes,
  }));
  const events = emittedWith(
    'SELECT id FROM finished',
    [...byId.values()].map((one) => ({ key: one.run.id, event: triggered(one) })),
  );
  // The automations' rows, which every worker's batches (and the intake's, ./engine.ts) share, are locked in id
  // order: two batches cannot deadlock on them.
  await db.raw(
    `
    WITH finished AS (
      UPDATE automation_runs r SET status = v.status, outcomes = v.outcomes, finished_at = now(), locked_until = NULL
      FROM jsonb_to_recordset(?::jsonb) AS v(id text, status text, outcomes jsonb)
      WHERE r.id = v.id AND r.status = 'running'
      RETURNING r.id, r.automation_id, r.status, r.created_at
    ), tally AS (
      SELECT automation_id, count(*) AS runs, count(*) FILTER (WHERE status = 'succeeded') AS succeeded,
        count(*) FILTER (WHERE status = 'failed') AS failed, max(created_at) AS last_created_at
      FROM finished GROUP BY automation_id
    ), locked AS (
      SELECT a.id FROM automations a JOIN tally ON tally.automation_id = a.id ORDER BY a.id FOR NO KEY UPDATE OF a
    ), counted AS (
      UPDATE automations a SET triggered_count = a.triggered_count + tally.runs,
        succeeded_count = a.succeeded_count + tally.succeeded, failed_count = a.failed_count + tally.failed,
        last_triggered_at = greatest(a.last_triggered_at, tally.last_created_at)
      FROM tally JOIN locked ON locked.id = tally.automation_id WHERE a.id = tally.automation_id
    ), ${events.ctes}
    SELECT count(*) FROM woken`,
    [JSON.stringify(rows), ...events.bindings],
  );
}

/**
 * Finishes runs in batches: those that end while a batch is being written go together in the next. A batch that
 * fails (one run whose finish cannot be written, a lock conflict, the database gone for a moment) is tried again
 * run by run; a run that fails alone too stays running, and is taken again when its lease runs out.
 */
export function runFinisher(db: Knex, logger: Logger): Batcher<FinishedRun> {
  return new Batcher(async (batch) => {
    try {
      await finishRuns(db, batch);
    } catch (error) {
      if (batch.length === 1) return leftToLease(logger, batch[0]!, error);
      logger.warn({ err: error, runs: batch.length }, 'finishing a batch of automation runs failed; finishing them one by one');
      for (const one of batch) await finishRuns(db, [one]).catch((err: unknown) => leftToLease(logger, one, err));
    }
  }, FINISH_BATCH);
}

function leftToLease(logger: Logger, { run }: FinishedRun, error: unknown): void {
  logger.error({ err: error, runId: run.id, automationId: run.automationId }, 'finishing an automation run failed; its lease will run out');
}
