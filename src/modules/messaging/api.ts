import type { Knex } from 'knex';

// What other areas read and write of the messaging area's tables (conversations and messages).

/** A stored message, as its account and the platform know it. */
export interface StoredMessageKey {
  id: string;
  conversationId: string;
  direction: 'in' | 'out';
  accountId: string;
  platformMessageId: string;
}

/** The stored messages among these (account, platform message id) pairs. */
export async function storedMessages(db: Knex, keys: Array<[accountId: string, platformMessageId: string]>): Promise<StoredMessageKey[]> {
  return db('messages')
    .whereIn(['accountId', 'platformMessageId'], keys)
    .select('id', 'conversationId', 'direction', 'accountId', 'platformMessageId');
}

/** The conversations among these (account, platform conversation id) pairs. */
export async function conversationsAt(
  db: Knex,
  keys: Array<[accountId: string, platformConversationId: string]>,
): Promise<Array<{ id: string; accountId: string; platformConversationId: string }>> {
  return db('conversations').whereIn(['accountId', 'platformConversationId'], keys).select('id', 'accountId', 'platformConversationId');
}

/**
 * Puts the tag on the conversation unless it has it already (compared without regard to case) or holds `max`
 * tags: 'tagged' (now or before), 'full', or 'gone' when there is no such conversation. One statement: the
 * conversation is locked first, so what it says of the tags (had it, full) is what the update decided on, even
 * when another transaction tags the same conversation at the same moment.
 */
export async function addConversationTag(db: Knex, id: string, tag: string, max: number): Promise<'tagged' | 'full' | 'gone'> {
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
    { id, tag, max },
  )) as { rows: Array<{ tagged: boolean }> };
  const [conversation] = rows;
  return !conversation ? 'gone' : conversation.tagged ? 'tagged' : 'full';
}

/** Which of these comments of the account were answered privately: a stored message is the reply to each. */
export async function commentsAnsweredPrivately(db: Knex, accountId: string, platformCommentIds: string[]): Promise<Set<string>> {
  const answered = (await db('messages')
    .distinct('replyToCommentId')
    .where({ accountId })
    .whereIn('replyToCommentId', platformCommentIds)) as Array<{ replyToCommentId: string }>;
  return new Set(answered.map((message) => message.replyToCommentId));
}
