import type { Knex } from 'knex';
import type { components } from '../../../generated/api.js';
import { NotFoundError, ValidationFailedError } from '../../lib/errors.js';
import { idOf, newId } from '../../lib/ids.js';
import { isUniqueViolation } from '../../lib/pg-errors.js';
import type { Services } from '../../services.js';
import { assertProfileInScope, listedProfiles, type Principal } from '../auth/principal.js';
import { lockProfile } from '../accounts/api.js';
import { findProfile } from '../accounts/profiles.js';
import { findAccount, profileAccounts } from '../accounts/read.js';
import { emitEvent } from '../events/emit.js';
import { insertPosts, placeInQueue, withQueueRetry } from './create.js';
import { decodeKeyset, keysetPage } from '../../lib/pagination.js';
import { PostStatusConflictError, QueueSlotExistsError, QueueSlotLimitReachedError } from './errors.js';
import { lockTargets } from './lifecycle.js';
import type { PostRow, SlotRow, TargetRow } from './rows.js';
import { DAYS, isTimeZone } from './occurrences.js';
import { postEvent } from './present.js';
import { findPost, targetsOf } from './read.js';
import { checkPost } from './validate.js';
import { scheduleWake } from './wake.js';

type QueueSlot = components['schemas']['QueueSlot'];
type QueueEntry = components['schemas']['QueueEntry'];
const MAX_SLOTS = 100;

export function presentSlot(row: SlotRow): QueueSlot {
  return {
    id: row.id,
    profileId: row.profileId,
    accountIds: row.accountIds,
    dayOfWeek: DAYS[row.dayOfWeek - 1]!,
    time: row.time,
    timezone: row.timezone,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

function presentEntry(post: PostRow): QueueEntry {
  return {
    postId: post.id,
    profileId: post.profileId,
    slotId: post.slotId!,
    scheduledAt: new Date(post.scheduledAt).toISOString(),
    timezone: post.timezone ?? 'UTC',
  };
}

/**
 * The accounts a slot is kept for, as stored: of the slot's profile (404, 403, 422 `account_not_in_profile`, as
 * `profileAccounts` refuses them), in id order, so that two slots for the same accounts are the same slot; null
 * (every account) as it is.
 */
export async function slotAccounts(db: Knex, principal: Principal, profileId: string, accountIds: string[] | null | undefined) {
  if (!accountIds) return null;
  await profileAccounts(db, principal, profileId, accountIds);
  return [...accountIds].sort();
}

export async function createSlot(db: Knex, principal: Principal, input: components['schemas']['QueueSlotCreate']): Promise<QueueSlot> {
  if (!isTimeZone(input.timezone))
    throw new ValidationFailedError([{ path: 'body/timezone', message: `is not an IANA time zone: ${input.timezone}`, code: 'timezone' }]);
  let accountIds: string[] | null = null;
  try {
    return await db.transaction(async (trx) => {
      await findProfile(trx, principal, input.profileId);
      accountIds = await slotAccounts(trx, principal, input.profileId, input.accountIds);
      // The profile row is the lock that keeps two requests from both adding the 101st slot.
      await lockProfile(trx, input.profileId);
      const [{ count } = { count: '0' }] = (await trx('queueSlots').where({ profileId: input.profileId }).count({ count: '*' })) as Array<{
        count: string;
      }>;
      if (Number(count) >= MAX_SLOTS) throw new QueueSlotLimitReachedError(MAX_SLOTS);
      const [row] = (await trx('queueSlots')
        .insert({
          id: newId('slot'),
          ownerId: principal.ownerId,
          profileId: input.profileId,
          accountIds,
          dayOfWeek: DAYS.indexOf(input.dayOfWeek) + 1,
          time: input.time,
          timezone: input.timezone,
        })
        .returning('*')) as SlotRow[];
      return presentSlot(row!);
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw new QueueSlotExistsError({ ...input, accountIds });
  }
}

/**
 * Weekly order: by profile, Monday to Sunday, local time; keyset-paginated on that order. `accountId`: the slots
 * serving that account (404, 403 as reading it), its profile's kept for every account or for it.
 */
export async function listSlots(
  db: Knex,
  principal: Principal,
  query: { profileId?: string; accountId?: string; limit?: number; cursor?: string },
) {
  const limit = query.limit ?? 20;
  const after = decodeKeyset(query.cursor, ['id', 'dayOfWeek', 'clock', 'timeZone', 'id']);
  const rows = db('queueSlots')
    .where({ ownerId: principal.ownerId })
    .orderBy(['profileId', 'dayOfWeek', 'time', 'timezone', 'id'])
    .limit(limit + 1);
  const profiles = await listedProfiles(db, principal, query.profileId);
  if (profiles) rows.whereIn('profileId', profiles);
  if (query.accountId) {
    const account = await findAccount(db, principal, idOf('acc', query.accountId));
    rows.where({ profileId: account.profileId }).where((serving) => {
      serving.whereNull('accountIds').orWhereRaw('account_ids @> ARRAY[?]::text[]', [account.id]);
    });
  }
  if (after) rows.whereRaw('(profile_id, day_of_week, time, timezone, id) > (?, ?, ?, ?, ?)', after);
  const page = keysetPage((await rows) as SlotRow[], limit, (slot) => [slot.profileId, slot.dayOfWeek, slot.time, slot.timezone, slot.id]);
  return { data: page.rows.map(presentSlot), nextCursor: page.nextCursor };
}

/** Posts already placed in it keep their time (and their slotId); later ones go to the other slots. */
export async function deleteSlot(db: Knex, principal: Principal, id: string): Promise<void> {
  const slot = (await db('queueSlots').where({ id, ownerId: principal.ownerId }).first()) as SlotRow | undefined;
  if (!slot) throw new NotFoundError('queue slot');
  assertProfileInScope(principal, slot.profileId);
  await db('queueSlots').where({ id }).delete();
}

/** Soonest first, keyset-paginated on (scheduledAt, id). */
export async function listQueue(db: Knex, principal: Principal, query: { profileId?: string; limit?: number; cursor?: string }) {
  const limit = query.limit ?? 20;
  const after = decodeKeyset(query.cursor, ['time', 'id']);
  const rows = db('posts')
    .where({ ownerId: principal.ownerId, status: 'scheduled' })
    .whereNotNull('slotId')
    .orderBy([
      { column: 'scheduledAt', order: 'asc' },
      { column: 'id', order: 'asc' },
    ])
    .limit(limit + 1);
  const profiles = await listedProfiles(db, principal, query.profileId);
  if (profiles) rows.whereIn('profileId', profiles);
  if (after) rows.whereRaw('(scheduled_at, id) > (?::timestamptz, ?)', after);
  const page = keysetPage((await rows) as PostRow[], limit, (post) => [new Date(post.scheduledAt).toISOString(), post.id]);
  return { data: page.rows.map(presentEntry), nextCursor: page.nextCursor };
}

/**
 * `POST /queue`: an existing post (scheduled or cancelled) moves to the next free slot, or a new post is created
 * in it. The post becomes `scheduled` at the slot's time and emits `post.scheduled`.
 */
export async function enqueue(services: Services, principal: Principal, input: components['schemas']['QueueEnqueue']): Promise<QueueEntry> {
  let post: PostRow;
  if ('post' in input) {
    const draft = input.post;
    const { profileId, accounts } = await checkPost(services, principal, draft);
    const [created] = await withQueueRetry(() =>
      services.db.transaction((trx) =>
        insertPosts(trx, principal.ownerId, [{ profileId, accounts, input: draft, when: { kind: 'queue' }, timezone: null }]),
      ),
    );
    post = created!.post;
  } else {
    post = await withQueueRetry(() => services.db.transaction((trx) => moveToQueue(trx, principal, input.postId)));
  }
  await scheduleWake(services, post.scheduledAt);
  return presentEntry(post);
}

async function moveToQueue(trx: Knex.Transaction, principal: Principal, postId: string): Promise<PostRow> {
  const current = await findPost(trx, principal, postId, 'forUpdate');
  if (current.status !== 'scheduled' && current.status !== 'cancelled' && current.status !== 'draft') {
    throw new PostStatusConflictError(`The post is ${current.status}; only scheduled, draft or cancelled posts can be queued.`);
  }
  await lockTargets(trx, postId);
  // Out of its own slot first, so that the slot it holds counts as free for it.
  await trx('posts').where({ id: postId }).update({ slotId: null });
  const accountIds = (await targetsOf(trx, [postId])).map((target) => target.accountId);
  const { slot, at } = await placeInQueue(trx, current.profileId, accountIds);
  const [post] = (await trx('posts')
    .where({ id: postId })
    .update({
      status: 'scheduled',
      slotId: slot.id,
      scheduledAt: at,
      timezone: slot.timezone,
      publishNow: false,
      updatedAt: trx.fn.now(),
    })
    .returning('*')) as PostRow[];
  await trx('postTargets').where({ postId }).update({ scheduledAt: at });
  await trx('postTargets')
    .where({ postId })
    .whereIn('status', ['scheduled', 'cancelled', 'draft'])
    // A lease taken ahead of the old time ends: the worker holding it drops the target, which is leased for its new time.
    .update({ status: 'scheduled', dueAt: at, leaseToken: null, lockedUntil: null });
  const targets = (await trx('postTargets').where({ postId })) as TargetRow[];
  await emitEvent(trx, { ownerId: post!.ownerId, profileId: post!.profileId, ...postEvent('post.scheduled', post!, targets) });
  return post!;
}
