import type { components } from '../../../generated/api.js';
import type { Knex } from 'knex';
import { NotFoundError } from '../../lib/errors.js';
import { SqlState, sqlStateOf } from '../../lib/pg-errors.js';
import { idOf } from '../../lib/ids.js';
import { PlatformError } from '../../platforms/errors.js';
import { PostNotFound } from '../../platforms/capabilities/publishing.js';
import type { Services } from '../../services.js';
import { assertWithinPlan } from '../usage/limits.js';
import type { Principal } from '../auth/principal.js';
import { recordPlatformOutcome } from '../accounts/accounts.js';
import { PlatformFailedError } from '../accounts/errors.js';
import { accountById, adapterAccount, ownedAccounts } from '../accounts/read.js';
import { emitEvent } from '../events/emit.js';
import { PostStatusConflictError } from './errors.js';
import type { Post, PostStatus, TargetRow } from './rows.js';
import { postEvent, presentPost } from './present.js';
import { findPost, targetsOf } from './read.js';
import { notifyDue } from './wake.js';

type DeletionTarget = components['schemas']['PostDeletionTarget'];

/**
 * Locks the post's targets before changing them, without waiting: a worker claiming them right now holds them
 * and then waits for the post, which the caller holds — waiting here would be a deadlock. Held: it is being
 * published, which is a 409.
 */
export async function lockTargets(trx: Knex.Transaction, postId: string): Promise<void> {
  try {
    await trx.raw('SELECT 1 FROM post_targets WHERE post_id = ? FOR UPDATE NOWAIT', [postId]);
  } catch (error) {
    if (sqlStateOf(error) === SqlState.lockNotAvailable)
      throw new PostStatusConflictError('The post is being published right now; try again when it has settled.');
    throw error;
  }
}

/**
 * `POST /posts/{id}/retry`: the failed targets (or those named) go back to the work queue, due now; published
 * targets are never touched. A target failed as `unknown` is sent again: the user asked for it, knowing the
 * platform may have it. Emits `post.processing` and wakes the workers, in one transaction.
 */
export async function retryPost(services: Services, principal: Principal, id: string, accountIds?: string[]): Promise<Post> {
  return services.db.transaction(async (trx) => {
    const post = await findPost(trx, principal, id, 'forUpdate');
    // The accounts named are the caller's before they are looked for among the targets (404, 403).
    const named = (accountIds ?? []).map((accountId) => idOf('acc', accountId));
    if ((await ownedAccounts(trx, principal, named)).length < new Set(accountIds).size) throw new NotFoundError('account');
    if (post.status === 'processing')
      throw new PostStatusConflictError('The post is being published; retry once it is published, partial or failed.');
    if (post.status === 'draft' || post.status === 'scheduled' || post.status === 'cancelled' || post.status === 'deleted') {
      throw new PostStatusConflictError(`The post is ${post.status}; only the failed targets of a partial or failed post can be retried.`);
    }
    const targets = await targetsOf(trx, [id]);
    const failed = targets.filter((target) => target.status === 'failed');
    for (const accountId of accountIds ?? []) {
      if (!failed.some((target) => target.accountId === accountId))
        throw new PostStatusConflictError(`${accountId} is not a failed target of the post.`);
    }
    const chosen = accountIds ? failed.filter((target) => accountIds.includes(target.accountId)) : failed;
    if (chosen.length === 0) throw new PostStatusConflictError('The post has no failed target to retry.');
    // A retried target will publish again: it must fit the plan's posts like a new one.
    await assertWithinPlan(trx, services.config.usage, post.ownerId, 'posts', chosen.length);
    const retried = (await trx('postTargets')
      .where({ postId: id })
      .whereIn(
        'accountId',
        chosen.map((t) => t.accountId),
      )
      .update({
        status: 'processing',
        failure: null,
        dueAt: trx.fn.now(),
        lockedUntil: null,
        attemptStartedAt: null,
      })
      .returning('*')) as TargetRow[];
    const [updated] = await trx('posts').where({ id }).update({ status: 'processing', updatedAt: trx.fn.now() }).returning('*');
    const now = targets.map((target) => retried.find((r) => r.accountId === target.accountId) ?? target);
    await emitEvent(trx, { ownerId: post.ownerId, profileId: post.profileId, ...postEvent('post.processing', updated, now) });
    await notifyDue(trx);
    return presentPost(updated, now);
  });
}

/**
 * `DELETE /posts/{id}`: a scheduled post or a draft is cancelled (its slot freed); a published one is deleted on every
 * platform that lets apps delete, target by target. The post stays locked meanwhile, so no retry or worker
 * changes it under the deletion. 502 only when there was something to delete and no platform could be handled.
 */
export async function deletePost(services: Services, principal: Principal, id: string): Promise<components['schemas']['PostDeletion']> {
  const refusals: Array<{ accountId: string; error: PlatformError }> = [];
  const result = await services.db
    .transaction(async (trx) => {
      const post = await findPost(trx, principal, id, 'forUpdate');
      if (post.status === 'processing')
        throw new PostStatusConflictError('The post is being published; delete it once its status is published, partial or failed.');
      const targets = await targetsOf(trx, [id]);
      const result = (target: TargetRow, outcome: DeletionTarget['result'], message: string | null = null): DeletionTarget => ({
        accountId: target.accountId,
        platform: target.platform as DeletionTarget['platform'],
        result: outcome,
        platformPostId: target.platformPostId,
        message,
      });
      if (post.status === 'scheduled' || post.status === 'draft') {
        await lockTargets(trx, id);
        await trx('postTargets')
          .where({ postId: id })
          .whereIn('status', ['scheduled', 'draft'])
          .update({ status: 'cancelled', dueAt: null });
        await trx('posts').where({ id }).update({ status: 'cancelled', updatedAt: trx.fn.now() });
        return {
          postId: id,
          status: 'cancelled' as const,
          targets: targets.map((t) => result(t, t.status === 'scheduled' || t.status === 'draft' ? 'cancelled' : 'skipped')),
        };
      }
      const outcomes: DeletionTarget[] = [];
      for (const target of targets) {
        if (target.status !== 'published') {
          outcomes.push(result(target, 'skipped'));
          continue;
        }
        const publisher = services.platforms.get(target.platform)?.publisher;
        if (!publisher?.delete) {
          outcomes.push(result(target, 'not_supported', `${target.platform} does not let apps delete posts; delete it in the app.`));
          continue;
        }
        const account = await accountById(trx, idOf('acc', target.accountId));
        if (!account || account.status !== 'connected') {
          outcomes.push(result(target, 'failed', 'The account needs reconnection; reconnect it and delete the post again.'));
          continue;
        }
        try {
          await publisher.delete(adapterAccount(account, services.secrets), target.platformPostId!, target.progress);
        } catch (error) {
          if (!(error instanceof PlatformError)) throw error;
          // Gone already (deleted in the platform's app): what the user wanted.
          if (!(error instanceof PostNotFound)) {
            if (error.needsReconnection) refusals.push({ accountId: target.accountId, error });
            outcomes.push(result(target, 'failed', `${target.platform} refused the deletion: ${error.message}`.slice(0, 2000)));
            continue;
          }
        }
        await trx('postTargets').where({ postId: id, accountId: target.accountId }).update({ status: 'deleted' });
        outcomes.push(result(target, 'deleted'));
      }
      const handled = outcomes.some((o) => o.result === 'deleted' || o.result === 'not_supported');
      if (!handled && outcomes.some((o) => o.result === 'failed')) {
        throw new PlatformFailedError(
          outcomes
            .filter((o) => o.result === 'failed')
            .map((o) => o.message)
            .join(' '),
        );
      }
      // Nothing was ever published (a failed post): nothing will be now.
      const status: PostStatus = handled ? 'deleted' : post.status === 'failed' ? 'cancelled' : post.status;
      if (status !== post.status) await trx('posts').where({ id }).update({ status, updatedAt: trx.fn.now() });
      return { postId: id, status, targets: outcomes };
    })
    .finally(async () => {
      for (const { accountId, error } of refusals) await recordPlatformOutcome(services.db, idOf('acc', accountId), error).catch(() => {});
    });
  return result;
}
