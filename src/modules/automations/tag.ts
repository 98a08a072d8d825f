import type { Knex } from 'knex';
import { addConversationTag } from '../messaging/api.js';
import { failed, type Performed, type Performer, skipped, succeeded } from './performer.js';
import type { RunAction, RunRecord } from './rows.js';

/** Tags a conversation holds at most. */
export const MAX_CONVERSATION_TAGS = 20;

/**
 * `add_tag`: puts the tag on the run's conversation, unless it has it already (compared without regard to case).
 * Adding it twice changes nothing, so a run resumed after a crash may safely add it again.
 */
export const tagConversation: Performer = ({ services, run, action }) => addTag(services.db, run, action);

/** `add_tag` through `db`: a transaction of the caller's, where the run is performed as it starts (./actions.ts). */
export async function addTag(db: Knex, run: Pick<RunRecord, 'conversationId'>, action: RunAction): Promise<Performed> {
  if (!run.conversationId) return skipped('no_conversation', 'The author of the comment has no conversation with the account to tag.');
  const outcome = await addConversationTag(db, run.conversationId, action.tag!, MAX_CONVERSATION_TAGS);
  if (outcome === 'gone') return skipped('no_conversation', 'The conversation was deleted with its account.');
  if (outcome === 'tagged') return succeeded();
  return failed('tag_limit_reached', `The conversation has ${MAX_CONVERSATION_TAGS} tags already, the most it can hold.`);
}
