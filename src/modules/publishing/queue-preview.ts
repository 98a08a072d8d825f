import type { Knex } from 'knex';
import { DateTime } from 'luxon';
import type { components } from '../../../generated/api.js';
import { ValidationFailedError } from '../../lib/errors.js';
import { findProfile } from '../accounts/profiles.js';
import { profileAccounts } from '../accounts/read.js';
import type { Principal } from '../auth/principal.js';
import { placeInQueue } from './create.js';
import { HORIZON_DAYS, occupancyKey, occurrencesBetween, serves } from './occurrences.js';
import type { SlotRow } from './rows.js';

type QueuePreview = components['schemas']['QueuePreview'];

const DAY_MS = 24 * 3600 * 1000;

/** The instant in the slot's zone, with that day's offset: what a person there reads on the clock. */
function localTime(slot: SlotRow, at: Date): string {
  return DateTime.fromJSDate(at, { zone: slot.timezone }).toISO({ suppressMilliseconds: true })!;
}

/** The profile (404, 403) and the accounts of it the caller asks for (404, 403, 422), none when it names none. */
async function queueOf(db: Knex, principal: Principal, profileId: string, accountIds: string[] = []): Promise<string[]> {
  await findProfile(db, principal, profileId);
  await profileAccounts(db, principal, profileId, accountIds, 'query/accountIds');
  return accountIds;
}

/**
 * `GET /queue/next-slot`: what `POST /queue` would give a post of the profile (to `accountIds`, when given) now
 * (422 when nothing is free).
 */
export async function nextSlot(
  db: Knex,
  principal: Principal,
  query: { profileId: string; accountIds?: string[] },
): Promise<components['schemas']['QueueNextSlot']> {
  const { profileId } = query;
  const { slot, at } = await placeInQueue(db, profileId, await queueOf(db, principal, profileId, query.accountIds));
  return {
    profileId,
    slotId: slot.id,
    accountIds: slot.accountIds,
    scheduledAt: at.toISOString(),
    localTime: localTime(slot, at),
    timezone: slot.timezone,
  };
}

/**
 * `GET /queue/preview`: every occurrence of the profile's slots (those serving all of `accountIds`, when given) in
 * `days` days from `start` (now), and the post queued at each.
 */
export async function previewQueue(
  db: Knex,
  principal: Principal,
  query: { profileId: string; accountIds?: string[]; from?: string; days?: number },
): Promise<QueuePreview> {
  const { profileId, days = 7 } = query;
  const now = Date.now();
  const from = query.from === undefined ? new Date(now) : new Date(query.from);
  // A second's leeway: a `from` made as "now" by the caller has passed by the time it arrives.
  if (from.getTime() < now - 1000 || from.getTime() > now + HORIZON_DAYS * DAY_MS)
    throw new ValidationFailedError([{ path: 'query/from', code: 'preview_window', message: 'must be from now to 365 days ahead' }]);
  const accountIds = await queueOf(db, principal, profileId, query.accountIds);
  const until = new Date(from.getTime() + days * DAY_MS);
  const slots = ((await db('queueSlots').where({ profileId })) as SlotRow[]).filter((slot) => serves(slot, accountIds));
  const queued = (await db('posts')
    .where({ profileId, status: 'scheduled' })
    .whereIn(
      'slotId',
      slots.map((slot) => slot.id),
    )
    .whereBetween('scheduledAt', [from, until])
    .select('id', 'slotId', 'scheduledAt')) as Array<{ id: string; slotId: string; scheduledAt: Date }>;
  const postAt = new Map(queued.map((post) => [occupancyKey(post.slotId, new Date(post.scheduledAt)), post.id]));
  return {
    profileId,
    from: from.toISOString(),
    until: until.toISOString(),
    occurrences: occurrencesBetween(slots, from, until).map(({ slot, at }) => ({
      slotId: slot.id,
      accountIds: slot.accountIds,
      scheduledAt: at.toISOString(),
      localTime: localTime(slot, at),
      timezone: slot.timezone,
      postId: postAt.get(occupancyKey(slot.id, at)) ?? null,
    })),
  };
}
