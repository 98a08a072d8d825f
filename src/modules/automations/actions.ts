import type { Services } from '../../services.js';
import type { Performed, Performer } from './performer.js';
import { platformPerformers } from './platform-actions.js';
import type { ActionType, RunRecord } from './records.js';
import { tagConversation } from './tag.js';

/** Who performs each kind of action. */
const PERFORMERS: Record<ActionType, Performer> = { ...platformPerformers, add_tag: tagConversation };

/** Performs action `index` of the run, with the ledger key of that action of that run. */
export function perform(services: Services, run: RunRecord, index: number): Promise<Performed> {
  const action = run.actions[index]!;
  return PERFORMERS[action.type]({ services, run, action, ledgerKey: `automation:${run.id}:${index}` });
}
