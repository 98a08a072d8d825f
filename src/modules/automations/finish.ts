import type { Knex } from 'knex';
import type { components } from '../../../generated/api.js';
import type { PlatformId } from '../../platforms/types.js';
import { emitEvent } from '../events/emit.js';
import type { ActionOutcome, RunRecord } from './records.js';

type TriggeredAction = components['schemas']['AutomationTriggeredData']['actions'][number];

function eventAction(run: RunRecord, outcome: ActionOutcome, index: number): TriggeredAction {
  return {
    type: run.actions[index]!.type,
    status: outcome.status,
    error: outcome.status === 'failed' && outcome.error ? `${outcome.error.code}: ${outcome.error.message}`.slice(0, 2000) : null,
  };
}

/**
 * Finishes a run whose every action is done, in one transaction: its status, the automation's counts, and
 * `automation.triggered` with each action's outcome. Only a run still running is finished, so a worker that
 * took a run over can never finish it (and emit) a second time.
 */
export async function finishRun(db: Knex, run: RunRecord, outcomes: ActionOutcome[]): Promise<void> {
  const failedRun = outcomes.some((outcome) => outcome.status === 'failed');
  await db.transaction(async (trx) => {
    const finished = await trx('automationRuns')
      .where({ id: run.id, status: 'running' })
      .update({ status: failedRun ? 'failed' : 'succeeded', finishedAt: trx.fn.now(), lockedUntil: null });
    if (finished === 0) return;
    await trx('automations')
      .where({ id: run.automationId })
      .update({
        triggeredCount: trx.raw('triggered_count + 1'),
        [failedRun ? 'failedCount' : 'succeededCount']: trx.raw(failedRun ? 'failed_count + 1' : 'succeeded_count + 1'),
        lastTriggeredAt: trx.raw('greatest(last_triggered_at, ?::timestamptz)', [run.createdAt]),
      });
    const message = run.sourceKind === 'message';
    await emitEvent(trx, {
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
    });
  });
}
