import type { Knex } from 'knex';
import type { PostMadePublic } from '../../platforms/capabilities/webhooks.js';

/**
 * A post the platform made public after it published it: the targets recorded under its provisional id (on every
 * connected account of that platform account) take the public id and link. No event: the post was published
 * already; what changed is the name the platform gives it. Running it twice changes nothing more.
 */
export async function recordPostMadePublic(db: Knex, platform: string, event: PostMadePublic): Promise<void> {
  const targets = await db('postTargets as t').join('accounts as a', 'a.id', 't.accountId')
    .where({ 'a.platform': platform, 'a.platformAccountId': event.platformAccountId, 't.platformPostId': event.provisionalId })
    .select('t.postId', 't.accountId', 't.progress') as Array<{ postId: string; accountId: string; progress: Record<string, unknown> }>;
  for (const target of targets) {
    await db('postTargets').where({ postId: target.postId, accountId: target.accountId, platformPostId: event.provisionalId })
      .update({ platformPostId: event.platformPostId, url: event.urlFor(target.progress) });
  }
}
