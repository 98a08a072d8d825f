import type { Knex } from 'knex';
import { DateTime, IANAZone } from 'luxon';
import type { SlotRow } from './rows.js';

export const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Day = (typeof DAYS)[number];

export function isTimeZone(zone: string): boolean {
  return IANAZone.isValidZone(zone);
}

/** How far ahead the queue looks for a free slot. */
export const HORIZON_DAYS = 365;

/**
 * The slot's occurrence in the calendar week that starts on `weekStart`'s Monday: that day at `time` in the slot's
 * zone, converted to UTC by the zone's rules of that very day — so 09:00 Europe/Berlin is 08:00Z in winter and
 * 07:00Z in summer. A local time the clocks skip (02:30 on a spring-forward night) is moved on by the gap
 * (03:30); a time that happens twice (autumn) is the second, in standard time (luxon's rule).
 */
export function occurrenceInWeek(slot: Pick<SlotRow, 'dayOfWeek' | 'time' | 'timezone'>, weekStart: DateTime): Date {
  const [hour, minute] = slot.time.split(':').map(Number) as [number, number];
  // The week is a calendar week (its Monday's date), whatever zone `weekStart` is in.
  const day = weekStart.plus({ days: slot.dayOfWeek - 1 });
  return DateTime.fromObject({ year: day.year, month: day.month, day: day.day, hour, minute }, { zone: slot.timezone }).toJSDate();
}

/**
 * The soonest occurrence of any of the slots, at or after `from` and within a year, that no scheduled post
 * occupies; null if there is none. Every slot's weeks start in its own zone (weeks of two zones overlap by up
 * to a day), so all occurrences of the year are listed and sorted: at most 100 slots × 55 weeks.
 */
export function firstFree(slots: SlotRow[], taken: Set<string>, from: Date): { slot: SlotRow; at: Date } | null {
  const until = new Date(from.getTime() + HORIZON_DAYS * 24 * 3600 * 1000);
  return occurrencesBetween(slots, from, until).find(({ slot, at }) => !taken.has(occupancyKey(slot.id, at))) ?? null;
}

/**
 * Every occurrence of the slots from `from` until `until` (both included), soonest first, then by slot id. Each
 * slot's weeks are its own zone's, one more than the window spans on each side: a week of another zone may start
 * up to a day apart.
 */
export function occurrencesBetween(slots: SlotRow[], from: Date, until: Date): Array<{ slot: SlotRow; at: Date }> {
  const weeks = Math.ceil((until.getTime() - from.getTime()) / (7 * 24 * 3600 * 1000)) + 1;
  const occurrences: Array<{ slot: SlotRow; at: Date }> = [];
  for (const slot of slots) {
    const first = DateTime.fromJSDate(from, { zone: slot.timezone }).startOf('week');
    for (let week = 0; week <= weeks; week += 1) {
      const at = occurrenceInWeek(slot, first.plus({ weeks: week }));
      if (at.getTime() >= from.getTime() && at.getTime() <= until.getTime()) occurrences.push({ slot, at });
    }
  }
  return occurrences.sort((a, b) => a.at.getTime() - b.at.getTime() || (a.slot.id < b.slot.id ? -1 : 1));
}

export function occupancyKey(slotId: string, at: Date): string {
  return `${slotId}|${at.getTime()}`;
}

/** Whether the slot serves a post to every one of `accountIds` (a slot kept for every account serves any). */
export function serves(slot: Pick<SlotRow, 'accountIds'>, accountIds: string[]): boolean {
  return slot.accountIds === null || accountIds.every((id) => slot.accountIds!.includes(id));
}

/**
 * Why a post gets no slot: the profile has none; none serves all of the post's accounts (`unserved`: those no
 * slot serves at all, empty when each has slots but none in common); every one serving them is taken for a year.
 */
export type NoFreeSlot = 'no_slots' | 'full' | { unserved: string[]; accountIds: string[] };

/**
 * The profile's slots that serve every one of `accountIds`, and the occurrences already taken by scheduled posts,
 * read in the caller's transaction, and by `placing` (posts the caller places before inserting them: a batch).
 */
export async function nextFreeSlot(
  trx: Knex,
  profileId: string,
  accountIds: string[],
  from: Date,
  placing: Array<{ slotId: string | null; scheduledAt: Date }> = [],
): Promise<{ slot: SlotRow; at: Date } | { none: NoFreeSlot }> {
  const all = (await trx('queueSlots').where({ profileId })) as SlotRow[];
  if (all.length === 0) return { none: 'no_slots' };
  const slots = all.filter((slot) => serves(slot, accountIds));
  if (slots.length === 0) return { none: { unserved: accountIds.filter((id) => !all.some((slot) => serves(slot, [id]))), accountIds } };
  const taken = (await trx('posts')
    .whereIn(
      'slotId',
      slots.map((slot) => slot.id),
    )
    .where({ status: 'scheduled' })
    .where('scheduledAt', '>=', from)
    .select('slotId', 'scheduledAt')) as Array<{ slotId: string; scheduledAt: Date }>;
  const keys = [...taken, ...placing].map((t) => occupancyKey(t.slotId ?? '', new Date(t.scheduledAt)));
  return firstFree(slots, new Set(keys), from) ?? { none: 'full' };
}
