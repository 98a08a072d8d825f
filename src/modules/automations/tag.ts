import { failed, type Performer, skipped, succeeded } from './performer.js';

/** Tags a conversation holds at most. */
export const MAX_CONVERSATION_TAGS = 20;

/**
 * `add_tag`: puts the tag on the run's conversation, unless it has it already (compared without regard to case).
 * Adding it twice changes nothing, so a run resumed after a crash may safely add it again.
 */
export const tagConversation: Performer = async ({ services: { db }, run, action }) => {
  const tag = action.tag!;
  if (!run.conversationId) return skipped('no_conversation', 'The author of the comment has no conversation with the account to tag.');
  const hasTag = 'EXISTS (SELECT 1 FROM unnest(tags) AS t WHERE lower(t) = lower(?))';
  const added = await db('conversations')
    .where({ id: run.conversationId })
    .whereRaw(`NOT ${hasTag}`, [tag])
    .whereRaw('cardinality(tags) < ?', [MAX_CONVERSATION_TAGS])
    .update({ tags: db.raw('array_append(tags, ?)', [tag]), updatedAt: db.fn.now() });
  if (added > 0) return succeeded();
  const conversation = (await db('conversations')
    .where({ id: run.conversationId })
    .first(db.raw(`${hasTag} AS "hasTag"`, [tag]))) as { hasTag: boolean } | undefined;
  if (!conversation) return skipped('no_conversation', 'The conversation was deleted with its account.');
  if (conversation.hasTag) return succeeded();
  return failed('tag_limit_reached', `The conversation has ${MAX_CONVERSATION_TAGS} tags already, the most it can hold.`);
};
