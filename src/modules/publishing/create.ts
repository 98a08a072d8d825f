import type { Knex } from 'knex';
import type { components } from '../../../generated/api.js';
import { newId } from '../../lib/ids.js';
import { isUniqueViolation } from '../../lib/pg-errors.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import type { AccountRow } from '../accounts/models.js';
import { emitEvents } from '../events/emit.js';
import { QueueSlotUnavailableError } from './errors.js';
import { assertWithinPlan } from '../usage/limits.js';
import type { PostRow, SlotRow, TargetRow } from './rows.js';
import { nextFreeSlot } from './occurrences.js';
import { postEvent } from './present.js';
import { assertMediaKept } from './media-lock.js';
import { checkPost, type PostContentInput } from './validate.js';
import { notifyDue, scheduleWake } from './wake.js';

type PostCreate = components['schemas']['PostCreate'];

export interface Created {
  post: PostRow;
  targets: TargetRow[];
}

/** When: at once, at `scheduledAt`, in the next free queue slot (chosen inside the transaction), or not yet (a draft). */
export type When = { kind: 'now' } | { kind: 'at'; at: Date } | { kind: 'queue' } | { kind: 'draft' };

/**
 * The slot occurrence a queued post to `accountIds` takes: of a slot serving every one of them, at least a minute
 * ahead, so that it can still be seen and moved.
 */
export async function placeInQueue(
  trx: Knex,
  profileId: string,
  accountIds: string[],
  placing: Array<{ slotId: string | null; scheduledAt: Date }> = [],
): Promise<{ slot: SlotRow; at: Date }> {
  const placed = await nextFreeSlot(trx, profileId, accountIds, new Date(Date.now() + 60_000), placing);
  if ('none' in placed) throw new QueueSlotUnavailableError(placed.none);
  return placed;
}

/**
 * Two requests can pick the same free occurrence; the unique index on (slot, time) lets one win, and the other
 * runs again and takes the next one.
 */
export async function withQueueRetry<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await run();
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 5) throw error;
    }
  }
}

/** When a new post (or an edit) says it is published. */
export function whenOf(input: { publishNow?: true; useQueue?: true; draft?: true; scheduledAt?: string }): When | null {
  if (input.publishNow) return { kind: 'now' };
  if (input.useQueue) return { kind: 'queue' };
  if (input.draft) return { kind: 'draft' };
  return input.scheduledAt === undefined ? null : { kind: 'at', at: new Date(input.scheduledAt) };
}

/** `POST /posts`: checked for every target, then created with its targets and its first event, in one transaction. */
export async function createPost(services: Services, principal: Principal, input: PostCreate): Promise<Created> {
  const when = whenOf(input)!;
  const { profileId, accounts } = await checkPost(services, principal, input);
  const [created] = await withQueueRetry(() =>
    services.db.transaction(async (trx) => {
      if (when.kind !== 'draft') await assertWithinPlan(trx, services.config.usage, principal.ownerId, 'posts', accounts.length);
      return insertPosts(trx, principal.ownerId, [{ profileId, accounts, input, when, timezone: input.timezone ?? null }]);
    }),
  );
  await wakeFor(services, [created!]);
  return created!;
}

/** Asks for a wake-up at each due time of `created` (one per second they fall in). */
export async function wakeFor(services: Services, created: Created[]): Promise<void> {
  const due = created
    .filter(({ post }) => post.status === 'scheduled')
    .map(({ post }) => Math.ceil(new Date(post.scheduledAt).getTime() / 1000));
  await Promise.all([...new Set(due)].map((second) => scheduleWake(services, new Date(second * 1000))));
}

/** One post to insert: its checked accounts, its content and when it is published. */
export interface NewPost {
  profileId: string;
  accounts: AccountRow[];
  input: PostContentInput;
  when: When;
  timezone: string | null;
}

/**
 * Inserts the posts and their targets (one statement each, however many), emits each post's `post.processing`
 * (at once) or `post.scheduled` (a draft emits none), and wakes the workers. Queued posts take their slots in
 * order, each seeing those placed before it.
 */
export async function insertPosts(trx: Knex.Transaction, ownerId: string, posts: NewPost[]): Promise<Created[]> {
  const now = new Date();
  const rows: Array<Omit<PostRow, 'publishedAt'>> = [];
  for (const { profileId, accounts, input, when, timezone } of posts) {
    if (input.mediaIds?.length) await assertMediaKept(trx, input.mediaIds);
    const placed =
      when.kind === 'queue'
        ? await placeInQueue(
            trx,
            profileId,
            accounts.map((account) => account.id),
            rows,
          )
        : null;
    // A draft's time is when it was saved: the post list's order (the API shows none).
    const scheduledAt = when.kind === 'at' ? when.at : placed ? placed.at : now;
    rows.push({
      id: newId('post'),
      ownerId,
      profileId,
      status: STATUS_OF[when.kind],
      text: input.text ?? null,
      mediaIds: input.mediaIds ?? [],
      platformOptions: (input.platformOptions ?? {}) as PostRow['platformOptions'],
      scheduledAt,
      publishNow: when.kind === 'now',
      timezone: timezone ?? placed?.slot.timezone ?? (when.kind === 'at' || when.kind === 'queue' ? 'UTC' : null),
      slotId: placed?.slot.id ?? null,
      createdAt: now,
      updatedAt: now,
    });
  }
  const inserted = (await trx('posts')
    .insert(rows.map((row) => ({ ...row, platformOptions: JSON.stringify(row.platformOptions) })))
    .returning('*')) as PostRow[];
  const byId = new Map(inserted.map((post) => [post.id, post]));
  const targets = (await trx('postTargets')
    .insert(
      rows.flatMap((row, i) =>
        posts[i]!.accounts.map((account, position) => ({
          postId: row.id,
          accountId: account.id,
          position,
          platform: account.platform,
          status: row.status,
          attempts: 0,
          dueAt: row.status === 'draft' ? null : row.scheduledAt,
          scheduledAt: row.scheduledAt,
        })),
      ),
    )
    .returning('*')) as TargetRow[];
  const created = rows.map((row) => ({ post: byId.get(row.id)!, targets: targets.filter((t) => t.postId === row.id) }));
  await emitEvents(
    trx,
    created
      .filter(({ post }) => post.status !== 'draft')
      .map(({ post, targets }) => ({
        ownerId,
        profileId: post.profileId,
        ...postEvent(post.status === 'processing' ? 'post.processing' : 'post.scheduled', post, targets),
      })),
  );
  if (created.some(({ post }) => post.status === 'processing')) await notifyDue(trx);
  return created;
}

const STATUS_OF = { now: 'processing', at: 'scheduled', queue: 'scheduled', draft: 'draft' } as const;
