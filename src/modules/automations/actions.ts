import type { Knex } from 'knex';
import type { Services } from '../../services.js';
import type { Performed, Performer, Throttled } from './performer.js';
import { platformPerformers } from './platform-actions.js';
import type { ActionOutcome, ActionType, RunAction, RunRecord } from './rows.js';
import { addTag, tagConversation } from './tag.js';

/** Who performs each kind of action. */
const PERFORMERS: Record<ActionType, Performer> = { ...platformPerformers, add_tag: tagConversation };

/** Performs action `index` of the run, with the ledger key of that action of that run. */
export function perform(services: Services, run: RunRecord, index: number): Promise<Performed | Throttled> {
  const action = run.actions[index]!;
  return PERFORMERS[action.type]({ services, run, action, ledgerKey: `automation:${run.id}:${index}` });
}

/** Actions on our own records alone, which a transaction of the service can perform. */
const OWN_RECORDS: Partial<Record<ActionType, (trx: Knex.Transaction, run: RunRecord, action: RunAction) => Promise<Performed>>> = {
  add_tag: addTag,
};

/**
 * Whether the run's actions all touch our own records alone (a tag): such a run is performed and finished in the
 * transaction that starts it, with the message or comment that triggered it, and no worker ever takes it.
 */
export function performedAsItStarts(run: Pick<RunRecord, 'actions'>): boolean {
  return run.actions.every((action) => OWN_RECORDS[action.type] !== undefined);
}

/** Performs the actions of a run that `performedAsItStarts`, in order, in `trx`. */
export async function performAsItStarts(trx: Knex.Transaction, run: RunRecord): Promise<ActionOutcome[]> {
  const outcomes: ActionOutcome[] = [];
  for (const action of run.actions)
    outcomes.push({ ...(await OWN_RECORDS[action.type]!(trx, run, action)), finishedAt: new Date().toISOString() });
  return outcomes;
}
