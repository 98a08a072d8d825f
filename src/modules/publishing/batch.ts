import type { components } from '../../../generated/api.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { assertWithinPlan } from '../usage/limits.js';
import { type Created, insertPosts, wakeFor, whenOf, withQueueRetry } from './create.js';
import { PostBatchValidationError } from './errors.js';
import { postProblems } from './problems.js';

type PostCreate = components['schemas']['PostCreate'];

/**
 * `POST /posts/batch`: created whole or not at all. Every item is checked first with the dry run's checks (the
 * accounts and media of the whole batch read once); any item that breaks a rule refuses the batch (422, every
 * item's outcome). Then every post, its targets and its first event are inserted in one transaction, a statement
 * each for all of them: a batch is a handful of round trips, not one per post.
 */
export async function createBatch(services: Services, principal: Principal, inputs: PostCreate[]): Promise<Created[]> {
  const checked = await postProblems(services, principal, inputs);
  if (checked.some((item) => item.errors.length > 0)) throw new PostBatchValidationError(checked.map((item) => item.errors));
  const posts = checked.map(({ profileId, accounts }, i) => ({
    profileId,
    accounts,
    input: inputs[i]!,
    when: whenOf(inputs[i]!)!,
    timezone: inputs[i]!.timezone ?? null,
  }));
  const due = posts.filter((post) => post.when.kind !== 'draft').reduce((sum, post) => sum + post.accounts.length, 0);
  const created = await withQueueRetry(() =>
    services.db.transaction(async (trx) => {
      if (due > 0) await assertWithinPlan(trx, services.config.usage, principal.ownerId, 'posts', due);
      return insertPosts(trx, principal.ownerId, posts);
    }),
  );
  await wakeFor(services, created);
  return created;
}
