import type { Knex } from 'knex';
import type { components } from '../../../generated/api.js';
import { ValidationFailedError } from '../../lib/errors.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { emitEvent } from '../events/emit.js';
import { assertWithinPlan } from '../usage/limits.js';
import { editPublished } from './edit-published.js';
import { type Created, placeInQueue, wakeFor, type When, whenOf, withQueueRetry } from './create.js';
import { PostStatusConflictError, PostValidationError } from './errors.js';
import { lockTargets } from './lifecycle.js';
import { assertMediaKept } from './media-lock.js';
import { postEvent } from './present.js';
import { findPost, targetsOf } from './read.js';
import { serves } from './occurrences.js';
import type { PostRow, SlotRow, TargetRow } from './rows.js';
import { type CheckedInput, checkPost } from './validate.js';
import { notifyDue } from './wake.js';

type PostUpdate = components['schemas']['PostUpdate'];

/** The members of an edit that say when the post is published: one at most. */
const TIMES = ['scheduledAt', 'useQueue', 'publishNow', 'draft'] as const;

/**
 * `PATCH /posts/{id}`: a draft or a scheduled post changed in place, checked as a new post is, in one transaction
 * against the publishing workers. The post is locked first (FOR NO KEY UPDATE: the lock its UPDATE takes), then its
 * targets without waiting: a claim takes the targets first and the post after, so a claim under way holds them and
 * the edit is refused (409) rather than half-applied under it; a claim that comes after the edit skips the locked
 * targets and finds them, changed, once it commits. The targets are written anew (a draft's and a scheduled post's
 * have never been attempted). A published post is edited on its platforms (edit-published.ts), under `ledgerKey`.
 */
export async function updatePost(
  services: Services,
  principal: Principal,
  id: string,
  change: PostUpdate,
  ledgerKey: string,
): Promise<Created> {
  const given = TIMES.filter((member) => change[member] !== undefined);
  if (given.length > 1) {
    throw new ValidationFailedError([
      { path: `body/${given[1]}`, code: 'oneOf', message: `cannot be given with ${given[0]}: a post is published at one time` },
    ]);
  }
  const updated = await withQueueRetry(() =>
    services.db.transaction(async (trx) => {
      const post = await findPost(trx, principal, id, 'forNoKeyUpdate');
      if (post.status === 'processing') throw new PostStatusConflictError('The post is being published right now; it was not changed.');
      if (post.status === 'published' || post.status === 'partial') return editPublished(services, trx, principal, post, change, ledgerKey);
      if (post.status !== 'draft' && post.status !== 'scheduled') {
        throw new PostStatusConflictError(`The post is ${post.status}; only a draft, a scheduled or a published post can be edited.`);
      }
      await lockTargets(trx, id);
      const targets = await targetsOf(trx, [id]);
      const input: CheckedInput = {
        text: (change.text === undefined ? post.text : change.text) ?? undefined,
        mediaIds: change.mediaIds ?? post.mediaIds,
        accountIds: change.accountIds ?? targets.map((target) => target.accountId),
        platformOptions: change.platformOptions ?? post.platformOptions,
        scheduledAt: change.scheduledAt,
        timezone: change.timezone,
      };
      const { profileId, accounts } = await checkPost(services, principal, input);
      if (profileId !== post.profileId) {
        throw new PostValidationError([
          {
            path: 'body/accountIds/0',
            code: 'account_other_profile',
            message: `The account belongs to profile ${profileId}; the post's accounts must be of its profile (${post.profileId}).`,
            accountId: accounts[0]!.id,
            platform: accounts[0]!.platform as components['schemas']['Platform'],
            limit: null,
          },
        ]);
      }
      const when = whenOf(change) ?? (post.status === 'draft' ? { kind: 'draft' as const } : null);
      // Targets newly due count against the plan's posts as a new post's do.
      const adding = (when?.kind === 'draft' ? 0 : accounts.length) - (post.status === 'scheduled' ? targets.length : 0);
      if (adding > 0) await assertWithinPlan(trx, services.config.usage, post.ownerId, 'posts', adding);
      if (input.mediaIds?.length) await assertMediaKept(trx, input.mediaIds);
      const placed = await placement(
        trx,
        post,
        accounts.map((account) => account.id),
        when,
        change.timezone,
      );
      const [row] = (await trx('posts')
        .where({ id })
        .update({
          ...placed,
          text: input.text ?? null,
          mediaIds: input.mediaIds,
          platformOptions: JSON.stringify(input.platformOptions),
          updatedAt: trx.fn.now(),
        })
        .returning('*')) as PostRow[];
      await trx('postTargets').where({ postId: id }).delete();
      const written = (await trx('postTargets')
        .insert(
          accounts.map((account, position) => ({
            postId: id,
            accountId: account.id,
            position,
            platform: account.platform,
            status: row!.status,
            attempts: 0,
            dueAt: row!.status === 'draft' ? null : row!.scheduledAt,
            scheduledAt: row!.scheduledAt,
          })),
        )
        .returning('*')) as TargetRow[];
      if (row!.status !== 'draft') {
        const name = row!.status === 'processing' ? 'post.processing' : 'post.scheduled';
        await emitEvent(trx, { ownerId: row!.ownerId, profileId: row!.profileId, ...postEvent(name, row!, written) });
      }
      if (row!.status === 'processing') await notifyDue(trx);
      return { post: row!, targets: written };
    }),
  );
  await wakeFor(services, [updated]);
  return updated;
}

async function slotServes(trx: Knex.Transaction, slotId: string, accountIds: string[]): Promise<boolean> {
  const slot = (await trx('queueSlots').where({ id: slotId }).first()) as SlotRow | undefined;
  return slot !== undefined && serves(slot, accountIds);
}

/** Where the edit puts the post in time: `when` given, or as it was (`null`: its time, slot and status kept). */
async function placement(
  trx: Knex.Transaction,
  post: PostRow,
  accountIds: string[],
  when: When | null,
  timezone: string | undefined,
): Promise<Pick<PostRow, 'status' | 'scheduledAt' | 'slotId' | 'timezone' | 'publishNow'>> {
  const now = new Date();
  switch (when?.kind) {
    case undefined:
      // A queued post whose slot no longer serves all its accounts takes the next slot that does.
      if (post.slotId !== null && !(await slotServes(trx, post.slotId, accountIds))) {
        return placement(trx, post, accountIds, { kind: 'queue' }, timezone);
      }
      return {
        status: post.status,
        scheduledAt: post.scheduledAt,
        slotId: post.slotId,
        timezone: timezone ?? post.timezone,
        publishNow: false,
      };
    case 'draft':
      // A draft's time is when it was saved (the post list's order).
      return {
        status: 'draft',
        scheduledAt: post.status === 'draft' ? post.scheduledAt : now,
        slotId: null,
        timezone: timezone ?? post.timezone,
        publishNow: false,
      };
    case 'now':
      return { status: 'processing', scheduledAt: now, slotId: null, timezone: timezone ?? post.timezone, publishNow: true };
    case 'at':
      return { status: 'scheduled', scheduledAt: when.at, slotId: null, timezone: timezone ?? post.timezone ?? 'UTC', publishNow: false };
    case 'queue': {
      // Out of its own slot first, so that the slot it holds counts as free for it.
      await trx('posts').where({ id: post.id }).update({ slotId: null });
      const { slot, at } = await placeInQueue(trx, post.profileId, accountIds);
      return { status: 'scheduled', scheduledAt: at, slotId: slot.id, timezone: timezone ?? slot.timezone, publishNow: false };
    }
  }
}
