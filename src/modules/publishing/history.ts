import type { components } from '../../../generated/api.js';
import { NotFoundError, ValidationFailedError } from '../../lib/errors.js';
import { platformPage } from '../../lib/pagination.js';
import { idOf } from '../../lib/ids.js';
import { PostNotFound } from '../../platforms/capabilities/publishing.js';
import type { Services } from '../../services.js';
import { withConnectedAccount } from '../accounts/platform-call.js';
import type { Principal } from '../auth/principal.js';

type HistoryList = components['schemas']['AccountHistoryList'];

/**
 * The account's posts as the platform lists them, read live; each matched to our post where one of its targets
 * published it (see platformPage).
 */
export async function listAccountHistory(
  services: Services,
  principal: Principal,
  id: string,
  query: {
    from?: string;
    to?: string;
    limit?: number;
    cursor?: string;
  },
): Promise<HistoryList> {
  const from = query.from ? new Date(query.from) : undefined;
  const to = query.to ? new Date(query.to) : undefined;
  if (from && to && from >= to) throw new ValidationFailedError([{ path: 'query/to', message: 'must be after from', code: 'range' }]);
  return platformPage(query, async ({ limit, after }) => {
    const { row, page } = await withConnectedAccount(
      services,
      principal,
      { accountId: idOf('acc', id) },
      'publisher',
      async (adapter, account, row) => ({
        row,
        page: await adapter.publisher.history(account, { from, to, limit, cursor: after }),
      }),
      { part: 'history', unsupported: (platform) => `${platform} accounts have no post history.` },
    );
    const platformIds = page.posts.map((post) => post.platformPostId);
    const ours =
      platformIds.length === 0
        ? []
        : ((await services
            .db('postTargets')
            .where({ accountId: row.id })
            .whereIn('platformPostId', platformIds)
            .select('postId', 'platformPostId')) as Array<{ postId: string; platformPostId: string }>);
    const postIdOf = new Map(ours.map((target) => [target.platformPostId, target.postId]));
    return {
      data: page.posts.map((post) => ({
        platformPostId: post.platformPostId,
        accountId: row.id,
        platform: row.platform as HistoryList['data'][number]['platform'],
        text: post.text,
        url: post.url,
        mediaUrls: post.mediaUrls,
        publishedAt: post.publishedAt.toISOString(),
        postId: postIdOf.get(post.platformPostId) ?? null,
        metrics: post.metrics,
      })),
      next: page.nextCursor,
    };
  });
}

/**
 * Deletes one post on the platform, made through us or not. A target of ours that published it becomes `deleted`
 * (its saved state tells the platform adapter everything that post consists of: every chat's message, say).
 */
export async function deletePlatformPost(services: Services, principal: Principal, id: string, objectId: string): Promise<void> {
  const target = await withConnectedAccount(
    services,
    principal,
    { accountId: idOf('acc', id) },
    'publisher',
    async (adapter, account, row) => {
      const ours = (await services
        .db('postTargets')
        .where({ accountId: row.id, platformPostId: objectId })
        .first('postId', 'accountId', 'progress')) as { postId: string; accountId: string; progress: Record<string, unknown> } | undefined;
      await adapter.publisher.delete(account, objectId, ours?.progress ?? {});
      return ours;
    },
    {
      part: 'delete',
      unsupported: (platform) => `${platform} does not let apps delete posts; delete it in the platform's app.`,
      handle: (error) => {
        if (error instanceof PostNotFound) throw new NotFoundError('post on the platform');
      },
    },
  );
  if (target) {
    await services.db.transaction(async (trx) => {
      await trx('postTargets')
        .where({ postId: target.postId, accountId: target.accountId, status: 'published' })
        .update({ status: 'deleted' });
      await trx('posts').where({ id: target.postId }).update({ updatedAt: trx.fn.now() });
    });
  }
}
