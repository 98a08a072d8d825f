import type { Knex } from 'knex';
import { failed, type Performed, type Performer, skipped, succeeded } from './performer.js';
import type { RunAction, RunRecord } from './records.js';

/** Tags a conversation holds at most. */
export const MAX_CONVERSATION_TAGS = 20;

/**
 * `add_tag`: puts the tag on the run's conversation, unless it has it already (compared without regard to case).
 * Adding it twice changes nothing, so a run resumed after a crash may safely add it again.
 *
 * One statement: the conversation is locked first, so what it says of the tags (had it, full) is what the update
 * decided on, even when another run tags the same conversation at the same moment.
 */
export const tagConversation: Performer = ({ services, run, action }) => addTag(services.db, run, action);

/** `add_tag` through `db`: a transaction of the caller's, where the run is performed as it starts (./actions.ts). */
export async function addTag(db: Knex, run: Pick<RunRecord, 'conversationId'>, action: RunAction): Promise<Performed> {
  const tag = action.tag!;
  if (!run.conversationId) return skipped('no_conversation', 'The author of the comment has no conversation with the account to tag.');
  const { rows } = (await db.raw(
    `
    WITH target AS (
      SELECT id, EXISTS (SELECT 1 FROM unnest(tags) AS t WHERE lower(t) = lower(:tag)) AS had_tag, cardinality(tags) < :max AS has_room
      FROM conversations WHERE id = :id FOR NO KEY UPDATE
    ), added AS (
      UPDATE conversations c SET tags = array_append(c.tags, :tag), updated_at = now()
      FROM target WHERE c.id = target.id AND NOT target.had_tag AND target.has_room
      RETURNING c.id
    )
    SELECT had_tag OR EXISTS (SELECT 1 FROM added) AS tagged FROM target`,
    { id: run.conversationId, tag, max: MAX_CONVERSATION_TAGS },
  )) as { rows: Array<{ tagged: boolean }> };
  const [conversation] = rows;
  if (!conversation) return skipped('no_conversation', 'The conversation was deleted with its account.');
  if (conversation.tagged) return succeeded();
  return failed('tag_limit_reached', `The conversation has ${MAX_CONVERSATION_TAGS} tags already, the most it can hold.`);
}
