import type { Knex } from 'knex';
import type { PostMadePublic } from '../../platforms/capabilities/webhooks.js';
import { accountIdsAt } from '../accounts/read.js';

/**
 * A post the platform made public after it published it: the targets recorded under its provisional id (on every
 * connected account of that platform account) take the public id and link. No event: the post was published
 * already; what changed is the name the platform gives it. Running it twice changes nothing more.
 */
export async function recordPostMadePublic(db: Knex, platform: string, event: PostMadePublic): Promise<void> {
  const accountIds = await accountIdsAt(db, platform, event.platformAccountId);
  if (accountIds.length === 0) return;
  const targets = (await db('postTargets')
    .whereIn('accountId', accountIds)
    .where({ platformPostId: event.provisionalId })
    .select('postId', 'accountId', 'progress')) as Array<{ postId: string; accountId: string; progress: Record<string, unknown> }>;
  for (const target of targets) {
    await db('postTargets')
      .where({ postId: target.postId, accountId: target.accountId, platformPostId: event.provisionalId })
      .update({ platformPostId: event.platformPostId, url: event.urlFor(target.progress) });
  }
}
