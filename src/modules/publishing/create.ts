import type { Knex } from 'knex';
import type { components } from '../../../generated/api.js';
import { ValidationFailedError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { isUniqueViolation } from '../../lib/pg-errors.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import type { AccountRow } from '../accounts/models.js';
import { emitEvent } from '../events/emit.js';
import { QueueSlotUnavailableError } from './errors.js';
import { assertWithinPlan } from '../usage/limits.js';
import type { PostRow, SlotRow, TargetRow } from './rows.js';
import { isTimeZone, nextFreeSlot } from './occurrences.js';
import { postEvent } from './present.js';
import { assertMediaKept } from './media-lock.js';
import { checkPost, type PostContentInput } from './validate.js';
import { notifyDue, scheduleWake } from './wake.js';

type PostCreate = components['schemas']['PostCreate'];

const YEAR_MS = 365 * 24 * 3600 * 1000;

export interface Created {
  post: PostRow;
  targets: TargetRow[];
}

/** When: at once, at `scheduledAt`, or in the next free queue slot (chosen inside the transaction). */
export type When = { kind: 'now' } | { kind: 'at'; at: Date } | { kind: 'queue' };

/** The slot occurrence a queued post takes: at least a minute ahead, so that it can still be seen and moved. */
export async function placeInQueue(trx: Knex, profileId: string): Promise<{ slot: SlotRow; at: Date }> {
  const placed = await nextFreeSlot(trx, profileId, new Date(Date.now() + 60_000));
  if (placed === 'no_slots') throw new QueueSlotUnavailableError('no_slots');
  if (!placed) throw new QueueSlotUnavailableError('full');
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

/** `POST /posts`: checked for every target, then created with its targets and its first event, in one transaction. */
export async function createPost(services: Services, principal: Principal, input: PostCreate): Promise<Created> {
  const { minScheduleAheadSeconds } = services.config.publishing;
  if (input.timezone !== undefined && !isTimeZone(input.timezone)) {
    throw new ValidationFailedError([{ path: 'body/timezone', message: `is not an IANA time zone: ${input.timezone}`, code: 'timezone' }]);
  }
  const when: When =
    'publishNow' in input ? { kind: 'now' } : 'useQueue' in input ? { kind: 'queue' } : { kind: 'at', at: new Date(input.scheduledAt) };
  if (when.kind === 'at') {
    const ahead = when.at.getTime() - Date.now();
    if (ahead <= 0 || ahead < minScheduleAheadSeconds * 1000 || ahead > YEAR_MS) {
      const soonest = minScheduleAheadSeconds > 0 ? `at least ${minScheduleAheadSeconds} seconds ahead` : 'in the future';
      throw new ValidationFailedError([
        { path: 'body/scheduledAt', code: 'schedule_window', message: `must be ${soonest} and at most 365 days ahead` },
      ]);
    }
  }
  const { profileId, accounts } = await checkPost(services, principal, input);
  const created = await withQueueRetry(() =>
    services.db.transaction(async (trx) => {
      await assertWithinPlan(trx, services.config.usage, principal.ownerId, 'posts', accounts.length);
      return insertPost(trx, principal.ownerId, profileId, accounts, input, when, input.timezone ?? null);
    }),
  );
  if (when.kind !== 'now') await scheduleWake(services, created.post.scheduledAt);
  return created;
}

/** Inserts the post and its targets, emits `post.processing` (at once) or `post.scheduled`, and wakes the workers. */
export async function insertPost(
  trx: Knex.Transaction,
  ownerId: string,
  profileId: string,
  accounts: AccountRow[],
  input: PostContentInput,
  when: When,
  timezone: string | null,
): Promise<Created> {
  await assertMediaKept(trx, input.mediaIds ?? []);
  const placed = when.kind === 'queue' ? await placeInQueue(trx, profileId) : null;
  const now = new Date();
  const scheduledAt = when.kind === 'at' ? when.at : placed ? placed.at : now;
  const status = when.kind === 'now' ? 'processing' : 'scheduled';
  const [post] = (await trx('posts')
    .insert({
      id: newId('post'),
      ownerId,
      profileId,
      status,
      text: input.text ?? null,
      mediaIds: input.mediaIds ?? [],
      platformOptions: JSON.stringify(input.platformOptions ?? {}),
      scheduledAt,
      publishNow: when.kind === 'now',
      timezone: timezone ?? placed?.slot.timezone ?? (when.kind === 'now' ? null : 'UTC'),
      slotId: placed?.slot.id ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning('*')) as PostRow[];
  const targets = (await trx('postTargets')
    .insert(
      accounts.map((account, position) => ({
        postId: post!.id,
        accountId: account.id,
        position,
        platform: account.platform,
        status,
        attempts: 0,
        dueAt: scheduledAt,
        scheduledAt,
      })),
    )
    .returning('*')) as TargetRow[];
  await emitEvent(trx, { ownerId, profileId, ...postEvent(when.kind === 'now' ? 'post.processing' : 'post.scheduled', post!, targets) });
  if (when.kind === 'now') await notifyDue(trx);
  return { post: post!, targets };
}
