import type { Knex } from 'knex';
import type { components } from '../../../generated/api.js';
import { NotFoundError, ValidationFailedError } from '../../lib/errors.js';
import { isUniqueViolation } from '../../lib/pg-errors.js';
import type { Services } from '../../services.js';
import { assertProfileInScope, type Principal } from '../auth/principal.js';
import { emitEvent } from '../events/emit.js';
import { placeInQueue, withQueueRetry } from './create.js';
import { QueueSlotExistsError } from './errors.js';
import { lockTargets } from './lifecycle.js';
import { DAYS, isTimeZone } from './occurrences.js';
import { postEvent } from './present.js';
import { presentSlot, slotAccounts } from './queue.js';
import { targetsOf } from './read.js';
import type { PostRow, SlotRow, TargetRow } from './rows.js';
import { scheduleWake } from './wake.js';

type QueueSlotUpdate = components['schemas']['QueueSlotUpdate'];

/** Posts due sooner than this keep their time when their slot changes: a worker may be about to claim them. */
const KEEP_WITHIN_MS = 60_000;

/**
 * `PATCH /queue/slots/{id}`: the slot changed (its time or its accounts), and the scheduled posts queued in it (more than a minute ahead)
 * placed again, in their order, in the next free occurrences of the profile's slots as they are now — all in one
 * transaction, so a post is never left at a time no slot has. Each post whose time changes emits `post.scheduled`.
 */
export async function updateSlot(services: Services, principal: Principal, id: string, input: QueueSlotUpdate) {
  if (input.timezone !== undefined && !isTimeZone(input.timezone))
    throw new ValidationFailedError([{ path: 'body/timezone', message: `is not an IANA time zone: ${input.timezone}`, code: 'timezone' }]);
  const { slot, moved } = await withQueueRetry(() => services.db.transaction((trx) => changeSlot(trx, principal, id, input)));
  for (const post of moved) await scheduleWake(services, post.scheduledAt);
  return presentSlot(slot);
}

async function changeSlot(trx: Knex.Transaction, principal: Principal, id: string, input: QueueSlotUpdate) {
  const current = (await trx('queueSlots').where({ id, ownerId: principal.ownerId }).forUpdate().first()) as SlotRow | undefined;
  if (!current) throw new NotFoundError('queue slot');
  assertProfileInScope(principal, current.profileId);
  const wanted = {
    accountIds:
      input.accountIds === undefined ? current.accountIds : await slotAccounts(trx, principal, current.profileId, input.accountIds),
    dayOfWeek: input.dayOfWeek ? DAYS.indexOf(input.dayOfWeek) + 1 : current.dayOfWeek,
    time: input.time ?? current.time,
    timezone: input.timezone ?? current.timezone,
  };
  let slot: SlotRow;
  try {
    // A savepoint: the unique violation is answered as a 409, not retried as a taken occurrence.
    [slot] = (await trx.transaction(async (inner) => inner('queueSlots').where({ id }).update(wanted).returning('*'))) as [SlotRow];
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw new QueueSlotExistsError({ ...wanted, dayOfWeek: DAYS[wanted.dayOfWeek - 1]! });
  }
  const queued = (await trx('posts')
    .where({ slotId: id, status: 'scheduled' })
    .where('scheduledAt', '>', new Date(Date.now() + KEEP_WITHIN_MS))
    .orderBy(['scheduledAt', 'id'])
    .forUpdate()) as PostRow[];
  const moved: PostRow[] = [];
  if (queued.length === 0) return { slot, moved };
  for (const post of queued) await lockTargets(trx, post.id);
  const targets = await targetsOf(
    trx,
    queued.map((post) => post.id),
  );
  // Out of their slot first, so that the occurrences they hold count as free for them.
  await trx('posts')
    .whereIn(
      'id',
      queued.map((post) => post.id),
    )
    .update({ slotId: null });
  for (const post of queued) {
    const accountIds = targets.filter((target) => target.postId === post.id).map((target) => target.accountId);
    const placed = await placeInQueue(trx, post.profileId, accountIds);
    const [updated] = (await trx('posts')
      .where({ id: post.id })
      .update({ slotId: placed.slot.id, scheduledAt: placed.at, timezone: placed.slot.timezone, updatedAt: trx.fn.now() })
      .returning('*')) as PostRow[];
    if (placed.at.getTime() === new Date(post.scheduledAt).getTime()) continue;
    await trx('postTargets').where({ postId: post.id }).update({ scheduledAt: placed.at });
    // A lease taken ahead of the old time ends: the worker holding it drops the target, which is leased for its new time.
    await trx('postTargets')
      .where({ postId: post.id, status: 'scheduled' })
      .update({ dueAt: placed.at, leaseToken: null, lockedUntil: null });
    const moving = (await trx('postTargets').where({ postId: post.id })) as TargetRow[];
    await emitEvent(trx, { ownerId: updated!.ownerId, profileId: updated!.profileId, ...postEvent('post.scheduled', updated!, moving) });
    moved.push(updated!);
  }
  return { slot, moved };
}
